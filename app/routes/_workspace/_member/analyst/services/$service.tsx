import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { serviceByAnalystSlug } from '#domain/services.ts'
import { AnalystServicePage } from '~/features/analyst/service-page/analyst-service-page'
import { servicePage, SitePageHeader } from '~/features/site/page-head'

const page = servicePage((slug) => serviceByAnalystSlug(slug) && `/analyst/services/${slug}`)

// The scan shown, readable in the address bar so the desk can link a draft; `companies=all` lists
// the scans of every company the analyst imports for, and `of` names the shown scan's company there.
const SearchSchema = v.object({
  scan: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/))),
  companies: v.optional(v.literal('all')),
  of: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/))),
})

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
  const { scan, companies, of } = Route.useSearch()
  const all = companies === 'all'
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
          allCompanies={all}
          scanCompany={all ? (of ?? null) : null}
          onScan={(id, company) =>
            void navigate({
              search: all ? { companies: 'all', ...(id && company ? { scan: id, of: company } : {}) } : id ? { scan: id } : {},
              replace: true,
              resetScroll: false,
            })
          }
          onCompany={async (companySlug) => {
            if (companySlug === null) {
              void navigate({ search: { companies: 'all' }, replace: true })
              return
            }
            const { switchCompany } = await import('~/core/workspace-live')
            if (session) await switchCompany(session, companySlug)
            void navigate({ search: {}, replace: true })
          }}
        />
      )}
    </>
  )
}
