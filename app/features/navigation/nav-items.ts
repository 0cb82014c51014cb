import { pageRules } from '#domain/access.ts'
import { services } from '#domain/services.ts'
import { sitePage } from '#domain/site-map.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'

export interface NavItem {
  to: string
  label: string
  /** Not built yet: still offered, marked as coming soon. */
  planned: boolean
  children?: NavItem[]
}

/** The top-level areas, in menu order. */
const areaPaths = ['/reports', '/templates', '/analyst', '/admin'] as const

/** The entry of a site-map page, under its own title unless `label` names it otherwise. */
const item = (path: string, label = sitePage(path).title): NavItem => ({ to: path, label, planned: sitePage(path).status === 'planned' })

/**
 * What the main navigation offers: Home, and each area the permission module lets the person
 * open (with the reports they can read under Reports). Signed out, only Home.
 */
export function navItems(session: Session | null, workspace: Workspace | null | undefined): NavItem[] {
  const home = item('/')
  if (!session) return [home]
  const context = {
    access: workspace?.access ?? { accessLevel: session.accessLevel, userType: session.userType },
    company: workspace?.company,
  }
  const areas = areaPaths
    .filter((path) => pageRules[path]?.(context))
    .map((path): NavItem => {
      const area = item(path)
      if (path !== '/reports') return area
      const reports = services.filter((s) => pageRules['/reports/$service']?.(context, s.id)).map((s) => item(`/reports/${s.id}`, s.label))
      return { ...area, children: reports }
    })
  return [home, ...areas]
}
