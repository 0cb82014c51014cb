import { createFileRoute, Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { sitePage } from '#domain/site-map.ts'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { surface } from '~/ui/surface'

const page = sitePage('/templates')
const findingTemplates = sitePage('/templates/finding')

export const Route = createFileRoute('/_workspace/_member/templates/')({
  head: pageHead('/templates'),
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
      <SitePageHeader page={page} />
      <Card to="/templates/finding">
        <strong>{findingTemplates.title}</strong>
        <span>{findingTemplates.summary}</span>
      </Card>
    </>
  )
}
