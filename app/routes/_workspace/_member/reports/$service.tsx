import { createFileRoute } from '@tanstack/react-router'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { serviceReportFirstPaint } from '~/features/reports/data/reports.functions'
import { ServiceReport } from '~/features/reports/service/service-report'
import { pageMeta, servicePage, SitePageHeader } from '~/features/site/page-head'

const page = servicePage((id) => serviceById(id) && `/reports/${id}`)

export const Route = createFileRoute('/_workspace/_member/reports/$service')({
  loader: async ({ params, context }) => ({
    page: page.loader({ params }),
    firstPaint: await serviceReportFirstPaint(params.service, context),
  }),
  head: ({ loaderData }) => pageMeta(loaderData?.page),
  component: ServiceReportPage,
})

function ServiceReportPage() {
  const { page: sitePage, firstPaint } = Route.useLoaderData()
  const { service } = Route.useParams()
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={sitePage} />
      <ServiceReport
        key={`${workspace?.company?.slug ?? ''}/${service}`}
        service={service as ServiceId}
        workspace={workspace}
        firstPaint={firstPaint}
        // The findings section goes here: findings={(slot) => <FindingsSection {...slot} />}
      />
    </>
  )
}
