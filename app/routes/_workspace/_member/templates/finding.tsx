import { Suspense, useState } from 'react'
import { createFileRoute } from '@tanstack/react-router'
import styled from 'styled-components'
import { sitePage } from '#domain/site-map.ts'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { LibraryTools } from '~/features/templates/library-tools'
import { TemplateList } from '~/features/templates/template-list'
import { templatesFirstPage } from '~/features/templates/template-first-page.functions'
import { TemplateListSearchSchema } from '~/features/templates/template-query'
import { lazyPart } from '~/ui/lazy-part'

// The editor (its CVSS calculator and Markdown preview) loads when a template is opened, not with the list.
const TemplateEditor = lazyPart(() => import('~/features/templates/template-editor').then((m) => ({ default: m.TemplateEditor })))

const page = sitePage('/templates/finding')

export const Route = createFileRoute('/_workspace/_member/templates/finding')({
  validateSearch: TemplateListSearchSchema,
  loaderDeps: ({ search }) => search,
  // The first page of results is in the server's HTML: the list shows before the app's code runs.
  loader: async ({ deps, context }) => ({ firstPage: await templatesFirstPage(deps, context) }),
  head: pageHead('/templates/finding'),
  component: FindingTemplates,
})

const Top = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  justify-content: space-between;
  gap: 16px;
  margin-bottom: 20px;
`

function FindingTemplates() {
  const { session } = Route.useRouteContext()
  const search = Route.useSearch()
  const { firstPage } = Route.useLoaderData()
  // Bumped by an import: the list starts afresh and shows what came in.
  const [listVersion, setListVersion] = useState(0)
  if (!session) return null
  if (search.template)
    return (
      <Suspense fallback={null}>
        <TemplateEditor key={search.template} slug={search.template} session={session} />
      </Suspense>
    )
  return (
    <>
      <Top>
        <SitePageHeader page={page} />
        <LibraryTools session={session} search={search} onImported={() => setListVersion((v) => v + 1)} />
      </Top>
      {/* After an import the list searches afresh: the first page no longer stands. */}
      <TemplateList key={listVersion} search={search} firstPage={listVersion === 0 ? firstPage : undefined} />
    </>
  )
}
