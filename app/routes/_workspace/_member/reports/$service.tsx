import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { FindingsSection } from '~/features/reports/findings/findings-section'
import { FindingsSearchSchema, type FindingsSearch } from '~/features/reports/findings/findings-query'
import { servicePage } from '~/features/site/page-head'
import { PlannedServicePage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/reports/$service')({
  ...servicePage((id) => serviceById(id) && `/reports/${id}`),
  validateSearch: FindingsSearchSchema,
  component: ServiceReport,
})

function ServiceReport() {
  const { workspace } = Route.useRouteContext()
  const { service } = Route.useParams()
  const search = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <>
      <PlannedServicePage />
      {workspace && (
        <FindingsSection
          workspace={workspace}
          service={service as ServiceId}
          search={search}
          onSearchChange={(next: FindingsSearch) => void navigate({ search: next, replace: true, resetScroll: false })}
          findingHref={(id) => `/reports/${service}/${id}`}
        />
      )}
    </>
  )
}
