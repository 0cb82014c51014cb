import { pageRules } from '#domain/access.ts'
import { serviceByAnalystSlug, serviceById } from '#domain/services.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'

export type PageAccess = 'allowed' | 'signed-out' | 'denied'

/** The site-map path of a member page's route id: '/_workspace/_member/reports/' → '/reports'. */
export function sitePathOf(routeId: string): string {
  // A segment ending in '_' is a route kept out of its parent's layout ('$service_'): same path.
  const path = routeId
    .replace(/^\/_workspace\/_member/, '')
    .replace(/\/$/, '')
    .replace(/_(?=\/|$)/g, '')
  return path === '' ? '/' : path
}

/** The service a `$service` page is about, as a service id (analyst pages use hyphenated slugs). */
function serviceParam(path: string, params: Record<string, string>): string | undefined {
  const value = params.service
  if (value === undefined) return undefined
  return path.startsWith('/analyst/') ? (serviceByAnalystSlug(value)?.id ?? value) : value
}

/** Whether a member page's address names a service that does not exist (`/reports/bogus`). */
export function isUnknownPage(routeId: string, params: Record<string, string>): boolean {
  const value = params.service
  if (value === undefined) return false
  return sitePathOf(routeId).startsWith('/analyst/') ? !serviceByAnalystSlug(value) : !serviceById(value)
}

/** Whether the person may open a member page, by the permission module's rule for it. */
export function pageAccess(
  routeId: string,
  params: Record<string, string>,
  context: { session: Session | null; workspace?: Workspace | null },
): PageAccess {
  if (!context.session) return 'signed-out'
  const path = sitePathOf(routeId)
  const rule = pageRules[path]
  if (!rule) return 'denied'
  const access = context.workspace?.access ?? { accessLevel: context.session.accessLevel, userType: context.session.userType }
  return rule({ access, company: context.workspace?.company }, serviceParam(path, params)) ? 'allowed' : 'denied'
}
