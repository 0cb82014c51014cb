import { createFileRoute } from '@tanstack/react-router'
import { FINDING_PAGE } from '#domain/site-map.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { FindingPage } from '~/features/reports/findings/finding-page'
import { servicePage } from '~/features/site/page-head'

export const Route = createFileRoute('/_workspace/_member/reports/$service_/$findingId')({
  ...servicePage((id) => serviceById(id) && FINDING_PAGE),
  component: Finding,
})

function Finding() {
  const { workspace } = Route.useRouteContext()
  // Typed by the route tree as its parent's; the path holds both.
  const { service, findingId } = Route.useParams() as { service: string; findingId: string }
  if (!workspace) return null
  return <FindingPage workspace={workspace} service={service as ServiceId} findingId={findingId} backHref={`/reports/${service}`} />
}
