import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { serviceReportFirstPaint } from '~/features/reports/data/reports.functions'
import { FindingsSearchSchema, type FindingsSearch } from '~/features/reports/findings/findings-search-params'
import { FindingsSection } from '~/features/reports/findings/findings-section'
import { ServiceExports } from '~/features/reports/exports/service-exports'
import { ScanChoiceSchema, type ScanChoice } from '~/features/reports/service/scan-choice'
import { ServiceReport } from '~/features/reports/service/service-report'
import { pageMeta, servicePage, SitePageHeader } from '~/features/site/page-head'

const page = servicePage((id) => serviceById(id) && `/reports/${id}`)

export const Route = createFileRoute('/_workspace/_member/reports/$service')({
  // The chosen scan and comparison, and the findings table's filters, grouping and order, readable
  // (and linkable) in the address bar.
  validateSearch: v.object({ ...FindingsSearchSchema.entries, ...ScanChoiceSchema.entries }),
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
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <>
      <SitePageHeader
        page={sitePage}
        actions={<ServiceExports workspace={workspace} service={service as ServiceId} search={search} firstPaint={firstPaint} />}
      />
      <ServiceReport
        key={`${workspace?.company?.slug ?? ''}/${service}`}
        service={service as ServiceId}
        workspace={workspace}
        firstPaint={firstPaint}
        choice={{ scan: search.scan, compare: search.compare }}
        onChoose={(choice: ScanChoice) => void navigate({ search: (prev) => ({ ...prev, ...choice }), resetScroll: false })}
        findings={() =>
          workspace && (
            <FindingsSection
              workspace={workspace}
              service={service as ServiceId}
              search={search}
              onSearchChange={(next: FindingsSearch) =>
                void navigate({
                  search: (prev) => ({ ...next, scan: prev.scan, compare: prev.compare }),
                  replace: true,
                  resetScroll: false,
                })
              }
              findingHref={(id) => `/reports/${service}/${id}`}
            />
          )
        }
      />
    </>
  )
}
