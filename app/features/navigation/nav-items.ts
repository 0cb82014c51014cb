import { pageRules } from '#domain/access.ts'
import { services } from '#domain/services.ts'
import { sitePage } from '#domain/site-map.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'

export interface NavItem {
  to: string
  label: string
  children?: NavItem[]
}

/** The top-level areas, in menu order. */
const areaPaths = ['/reports', '/templates', '/analyst', '/admin'] as const

/**
 * What the main navigation offers: Home, and each area the permission module lets the person
 * open (with the reports they can read under Reports). Signed out, only Home.
 */
export function navItems(session: Session | null, workspace: Workspace | null | undefined): NavItem[] {
  const home = { to: '/', label: sitePage('/').title }
  if (!session) return [home]
  const context = {
    access: workspace?.access ?? { accessLevel: session.accessLevel, userType: session.userType },
    company: workspace?.company,
  }
  const areas = areaPaths
    .filter((path) => pageRules[path]?.(context))
    .map((path): NavItem => {
      const item = { to: path, label: sitePage(path).title }
      if (path !== '/reports') return item
      const reports = services
        .filter((s) => pageRules['/reports/$service']?.(context, s.id))
        .map((s) => ({ to: `/reports/${s.id}`, label: s.label }))
      return { ...item, children: reports }
    })
  return [home, ...areas]
}
