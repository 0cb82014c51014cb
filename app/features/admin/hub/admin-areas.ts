// The administration areas a person may open, by the permission module's page rules, each with
// the count /admin shows beside it.
import { pageRules, type Access, type CompanyFlags } from '#domain/access.ts'
import { sitePages, type SitePage } from '#domain/site-map.ts'

export type AreaCount = 'companies' | 'people' | 'company-people' | 'keys-expiring'

export interface AdminArea {
  page: SitePage
  count: AreaCount | null
}

const COUNTS: Readonly<Record<string, AreaCount>> = {
  '/admin/company': 'companies',
  '/admin/app/users': 'people',
  '/admin/company/manage-users': 'company-people',
  '/admin/keys_email': 'keys-expiring',
}

export function adminAreas(access: Access, company: CompanyFlags | null | undefined): AdminArea[] {
  return sitePages
    .filter((page) => page.path.startsWith('/admin/') && (pageRules[page.path]?.({ access, company }) ?? false))
    .map((page) => ({ page, count: COUNTS[page.path] ?? null }))
}
