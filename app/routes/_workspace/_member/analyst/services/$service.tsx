import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { serviceByAnalystSlug } from '#domain/services.ts'
import { AnalystServicePage } from '~/features/analyst/service-page/analyst-service-page'
import { servicePage, SitePageHeader } from '~/features/site/page-head'

const page = servicePage((slug) => serviceByAnalystSlug(slug) && `/analyst/services/${slug}`)

// The scan shown, readable in the address bar so the desk can link a draft.
const SearchSchema = v.object({ scan: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/))) })

export const Route = createFileRoute('/_workspace/_member/analyst/services/$service')({
  validateSearch: (search) => {
    const parsed = v.safeParse(SearchSchema, search)
    return parsed.success ? parsed.output : {}
  },
  ...page,
  component: AnalystServiceRoute,
})

function AnalystServiceRoute() {
  const sitePage = Route.useLoaderData()
  const { service: slug } = Route.useParams()
  const { workspace, session } = Route.useRouteContext()
  const { scan } = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const service = serviceByAnalystSlug(slug)!
  return (
    <>
      <SitePageHeader page={sitePage} />
      {workspace && (
        <AnalystServicePage
          workspace={workspace}
          service={service.id}
          scanId={scan ?? null}
          onScan={(id) => void navigate({ search: id ? { scan: id } : {}, replace: true, resetScroll: false })}
          onCompany={async (companySlug) => {
            const { switchCompany } = await import('~/core/workspace-live')
            if (session) await switchCompany(session, companySlug)
            void navigate({ search: {}, replace: true })
          }}
        />
      )}
    </>
  )
}
