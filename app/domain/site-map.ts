import { services } from './services.ts'

/**
 * Every page of the product: its path, its name (document title and navigation), which shell it
 * renders in and whether it needs a signed-in user. Navigation, guards and the route tests read this
 * one list.
 */
export type Shell = 'workspace' | 'bare'

export interface SitePage {
  path: string
  title: string
  /** `workspace` pages sit in the shell with logo and navigation; `bare` pages stand alone. */
  shell: Shell
  signIn: boolean
  /** One line on what the page is for, shown under its heading. */
  summary: string
}

const page = (path: string, title: string, summary: string, shell: Shell = 'workspace', signIn = true): SitePage => ({
  path,
  title,
  summary,
  shell,
  signIn,
})

export const sitePages: readonly SitePage[] = [
  page('/', 'Home', 'Your security testing workspace.', 'workspace', false),
  page('/reports', 'Reports', 'Scan reports of the services your company uses.'),
  ...services.map((s) => page(`/reports/${s.id}`, `${s.label} report`, `Findings and scans of the ${s.label} service.`)),
  page('/reports/$service/$findingId', 'Finding', 'One finding: where it is, what to do, its history and conversation.'),
  page('/templates', 'Templates', 'The library of reusable findings.'),
  page('/templates/finding', 'Finding templates', 'Search, write and maintain finding templates.'),
  page('/analyst', 'Analyst', 'Drafts to publish, retests due and disputed findings of the services you run.'),
  ...services.map((s) =>
    page(`/analyst/services/${s.analystSlug}`, `${s.label} service`, `Import, review and publish ${s.label} scans, and answer retests.`),
  ),
  page('/analyst/vault/link', 'Vault share link', 'Share a secret with a client through a one-time link.'),
  page('/analyst/vault/request', 'Vault request link', 'Ask a client for a secret through a one-time link.'),
  page('/analyst/agents', 'Agents', 'Scanning agents and their state.'),
  page('/analyst/locations', 'Locations', 'Where agents scan from.'),
  page('/admin', 'Administration', 'Companies, users, services and keys.'),
  page('/admin/company/create-company', 'Create company', 'Add a client company and choose its services.'),
  page('/admin/company', 'Companies', 'Manage client companies and their services.'),
  page('/admin/app/users', 'Platform users', 'Everyone who can sign in, across companies.'),
  page('/admin/app/services', 'Platform services', 'The services the platform offers.'),
  page('/admin/keys_email', 'Email keys', 'Addresses and domains that may sign in for a company.'),
  page('/admin/company/manage-users', 'Company users', 'People of your company and their access.'),
  page('/admin/dast', 'DAST keys', 'Keys that let your pipelines trigger DAST scans.'),
  page('/admin/api-tokens', 'API tokens', 'Tokens that let your tools read and change findings through the API.'),
  page('/admin/webhooks', 'Webhooks', 'Endpoints your systems receive signed events at, and what was delivered.'),
  page('/profile', 'Settings', 'Your profile, preferences and activity.'),
  page('/auth/redirect', 'Signing in', 'Completing sign-in from the emailed link.', 'bare', false),
  page('/vault/$', 'Vault', 'A secret shared through a one-time link.', 'bare', false),
]

/** A finding's page: a report page's path with the finding's id. */
export const FINDING_PAGE = '/reports/$service/$findingId'

/** An address of every page for tests and benchmarks: parameters filled with examples. */
export const exampleUrl = (page: SitePage) =>
  page.path === '/vault/$' ? '/vault/share/3f9c1a' : page.path === FINDING_PAGE ? '/reports/dast/example-finding' : page.path

/** The page a path belongs to; `/vault/…` paths all belong to the vault page. */
export function sitePage(path: string): SitePage {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path
  const found = normalized.startsWith('/vault/')
    ? sitePages.find((p) => p.path === '/vault/$')
    : sitePages.find((p) => p.path === normalized)
  if (!found) throw new Error(`No page is declared for ${path}`)
  return found
}
