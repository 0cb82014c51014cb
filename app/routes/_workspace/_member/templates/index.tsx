import { createFileRoute, Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { pageTitle } from '#domain/brand.ts'
import { sitePage } from '#domain/site-map.ts'
import { PageHeader } from '~/ui/page-header'
import { surface } from '~/ui/surface'

const page = sitePage('/templates')
const findingTemplates = sitePage('/templates/finding')

export const Route = createFileRoute('/_workspace/_member/templates/')({
  head: () => ({ meta: [{ title: pageTitle(page.title) }] }),
  component: Templates,
})

const Card = styled(Link)`
  ${surface}
  display: block;
  max-width: 480px;
  padding: 20px 24px;
  color: var(--color-text);
  text-decoration: none;

  strong {
    display: block;
    font-size: 17px;
    margin-bottom: 4px;
  }
  span {
    color: var(--color-text-muted);
  }
  &:hover {
    border-color: var(--color-primary);
  }
`

function Templates() {
  return (
    <>
      <PageHeader title={page.title} summary={page.summary} />
      <Card to="/templates/finding">
        <strong>{findingTemplates.title}</strong>
        <span>{findingTemplates.summary}</span>
      </Card>
    </>
  )
}
