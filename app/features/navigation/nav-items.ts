import { pageRules, type Context } from '#domain/access.ts'
import { serviceByAnalystSlug, services } from '#domain/services.ts'
import { sitePage, sitePages, type SitePage } from '#domain/site-map.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'

export interface NavItem {
  to: string
  label: string
  /** The page's one line from the site map (hub pages show it). */
  summary?: string
  children?: NavItem[]
}

/** The top-level areas, in menu order. */
export const areaPaths = ['/reports', '/templates', '/analyst', '/admin'] as const
export type AreaPath = (typeof areaPaths)[number]

/** The entry of a site-map page, under its own title unless `label` names it otherwise. */
const item = (path: string, label = sitePage(path).title): NavItem => ({
  to: path,
  label,
  summary: sitePage(path).summary,
})

/** What the permission module needs to know about the person, from the workspace or else the session. */
export function accessContext(session: Session, workspace: Workspace | null | undefined): Context {
  return {
    access: workspace?.access ?? { accessLevel: session.accessLevel, userType: session.userType },
    company: workspace?.company,
  }
}

/**
 * Whether the person may open a concrete page of the site map: its own rule, or the rule of the
 * `$service` page it is one of (with the service as the rule's parameter).
 */
function mayOpen(page: SitePage, context: Context): boolean {
  const own = pageRules[page.path]
  if (own) return own(context)
  const report = /^\/reports\/([^/]+)$/.exec(page.path)
  if (report) return pageRules['/reports/$service']?.(context, report[1]) ?? false
  const analyst = /^\/analyst\/services\/([^/]+)$/.exec(page.path)
  if (analyst) return pageRules['/analyst/services/$service']?.(context, serviceByAnalystSlug(analyst[1]!)?.id ?? analyst[1]) ?? false
  return false
}

/**
 * The pages of an area that the person may open, in site-map order: what the area's hub lists and
 * navigation shows under it. A page added to the site map appears here by itself.
 */
export function areaPages(area: AreaPath, context: Context, pages: readonly SitePage[] = sitePages): NavItem[] {
  if (area === '/reports') {
    // Reports are named by their service alone under the Reports heading.
    return services.filter((s) => mayOpen(sitePage(`/reports/${s.id}`), context)).map((s) => item(`/reports/${s.id}`, s.label))
  }
  return pages.filter((p) => p.path.startsWith(`${area}/`) && !p.path.includes('$') && mayOpen(p, context)).map((p) => item(p.path))
}

/**
 * What the main navigation offers: Home, and each area the permission module lets the person
 * open, with the pages of the area they may open under it. Signed out, only Home.
 */
export function navItems(session: Session | null, workspace: Workspace | null | undefined): NavItem[] {
  const home = item('/')
  if (!session) return [{ to: home.to, label: home.label }]
  const context = accessContext(session, workspace)
  const areas = areaPaths
    .filter((path) => pageRules[path]?.(context))
    .map((path): NavItem => {
      const children = areaPages(path, context)
      return children.length > 0 ? { ...item(path), children } : item(path)
    })
  return [home, ...areas]
}
