import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { HubLinks } from '~/features/navigation/hub-links'
import { accessContext, areaPages } from '~/features/navigation/nav-items'
import { pageHead, SitePageHeader } from '~/features/site/page-head'
import { TemplateCount } from '~/features/templates/template-count'

const page = sitePage('/templates')

export const Route = createFileRoute('/_workspace/_member/templates/')({
  head: pageHead('/templates'),
  component: Templates,
})

function Templates() {
  const { session, workspace } = Route.useRouteContext()
  const items = session ? areaPages('/templates', accessContext(session, workspace)) : []
  return (
    <>
      <SitePageHeader page={page} />
      <HubLinks label="Templates pages" items={items} counts={{ '/templates/finding': <TemplateCount /> }} />
    </>
  )
}
