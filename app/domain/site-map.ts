import { services } from './services.ts'

/**
 * Every page of the product: its path, its name (document title and navigation), which shell it
 * renders in, whether it needs a signed-in user and whether it is built yet. Navigation, guards and
 * the route tests read this one list.
 */
export type Shell = 'workspace' | 'bare'

/** `planned` pages are declared but not built: they show a placeholder and navigation marks them. */
export type PageStatus = 'planned' | 'live'

export interface SitePage {
  path: string
  title: string
  /** `workspace` pages sit in the shell with logo and navigation; `bare` pages stand alone. */
  shell: Shell
  signIn: boolean
  status: PageStatus
  /** One line on what the page is for, shown under its heading. */
  summary: string
}

const page = (status: PageStatus, path: string, title: string, summary: string, shell: Shell = 'workspace', signIn = true): SitePage => ({
  path,
  title,
  summary,
  shell,
  signIn,
  status,
})

export const sitePages: readonly SitePage[] = [
  page('live', '/', 'Home', 'Your security testing workspace.', 'workspace', false),
  page('live', '/reports', 'Reports', 'Scan reports of the services your company uses.'),
  ...services.map((s) => page('live', `/reports/${s.id}`, `${s.label} report`, `Findings and scans of the ${s.label} service.`)),
  page('live', '/reports/$service/$findingId', 'Finding', 'One finding: where it is, what to do, its history and conversation.'),
  page('live', '/templates', 'Templates', 'The library of reusable findings.'),
  page('live', '/templates/finding', 'Finding templates', 'Search, write and maintain finding templates.'),
  page('live', '/analyst', 'Analyst', 'Drafts to publish, retests due and disputed findings of the services you run.'),
  ...services.map((s) =>
    page(
      'live',
      `/analyst/services/${s.analystSlug}`,
      `${s.label} service`,
      `Import, review and publish ${s.label} scans, and answer retests.`,
    ),
  ),
  page('live', '/analyst/vault/link', 'Vault share link', 'Share a secret with a client through a one-time link.'),
  page('live', '/analyst/vault/request', 'Vault request link', 'Ask a client for a secret through a one-time link.'),
  page('live', '/analyst/agents', 'Agents', 'Scanning agents and their state.'),
  page('live', '/analyst/locations', 'Locations', 'Where agents scan from.'),
  page('live', '/admin', 'Administration', 'Companies, users, services and keys.'),
  page('live', '/admin/company/create-company', 'Create company', 'Add a client company and choose its services.'),
  page('live', '/admin/company', 'Companies', 'Manage client companies and their services.'),
  page('live', '/admin/app/users', 'Platform users', 'Everyone who can sign in, across companies.'),
  page('live', '/admin/app/services', 'Platform services', 'The services the platform offers.'),
  page('live', '/admin/keys_email', 'Email keys', 'Addresses and domains that may sign in for a company.'),
  page('live', '/admin/company/manage-users', 'Company users', 'People of your company and their access.'),
  page('live', '/admin/dast', 'DAST keys', 'Keys that let your pipelines trigger DAST scans.'),
  page('live', '/admin/api-tokens', 'API tokens', 'Tokens that let your tools read and change findings through the API.'),
  page('live', '/profile', 'Settings', 'Your profile, preferences and activity.'),
  page('live', '/auth/redirect', 'Signing in', 'Completing sign-in from the emailed link.', 'bare', false),
  page('live', '/vault/$', 'Vault', 'A secret shared through a one-time link.', 'bare', false),
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
