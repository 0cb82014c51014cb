// Who may see what: the one statement of the product's access rules (decision 0009). Route
// guards, navigation, server functions, callables and the Firestore rules tests all ask here;
// nothing else states a threshold. Pure TypeScript: the functions compile it too.
import { services, type ServiceId } from './services.ts'

/** The access levels. */
export const LEVEL = {
  clientViewer: 1,
  clientManager: 2,
  companyAdmin: 3,
  analyst: 5,
  seniorAnalyst: 7,
  platformAdmin: 9,
} as const

/** Client staff, or the analysts who run the services. */
export const USER_TYPES = ['client', 'analyst'] as const
export type UserType = (typeof USER_TYPES)[number]

/** What is known about a person: their claims and, from users_access, their service rights. */
export interface Access {
  accessLevel?: number | null
  userType?: UserType | null
  servicesEnabled?: readonly string[]
  servicesManaged?: readonly string[]
}

/** A company's service switches (companies/{slug}): its feature flags. */
export const COMPANY_FLAGS = [
  'enableViewProjectMarianaResults',
  'enableViewProjectMarianaStats',
  'enableDast',
  'enableDastTriggering',
  'enableViewResultsNetwork',
  'enableViewCloudScanStats',
  'enableViewCloudScanResults',
  'enableViewResultsPasswordCracking',
] as const

export type CompanyFlag = (typeof COMPANY_FLAGS)[number]
export type CompanyFlags = Partial<Record<CompanyFlag, boolean>>

/** Every switch set to `on`: the start of a company's flags. */
export const allCompanyFlags = (on: boolean) => Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, on])) as Record<CompanyFlag, boolean>

export const isAnalyst = (access: Access | null | undefined) => access?.userType === 'analyst'

/**
 * "At least N": the level is present and N or more; from the analyst level (5) up the person must
 * also be an analyst, so a client holding level 9 by mistake counts as a company admin at most.
 */
export function hasLevel(access: Access | null | undefined, level: number): boolean {
  const own = access?.accessLevel
  return typeof own === 'number' && Number.isFinite(own) && own >= level && (level < LEVEL.analyst || isAnalyst(access))
}

/** The admin-type check: analysts and above. */
export const isAdminType = (access: Access | null | undefined) => hasLevel(access, LEVEL.analyst)

/** Senior analysts and above see every company, live. */
export const seesAllCompanies = (access: Access | null | undefined) => isAnalyst(access) && hasLevel(access, LEVEL.seniorAnalyst)

/** The reports override: analysts who see every company also see every company's reports. */
export const hasReportsOverride = seesAllCompanies

/** Analysts above level 5 may ask for search credentials for the finding templates. */
export const mayRequestSearchCredentials = (access: Access | null | undefined) => isAnalyst(access) && hasLevel(access, LEVEL.analyst + 1)

/** Anyone with a level may ask for a key to search the findings of a company they may select (checked per company). */
export const mayRequestFindingsSearch = (access: Access | null | undefined) => hasLevel(access, LEVEL.clientViewer)

/** Analysts see the selected company's name in the header. */
export const showsCompanyName = isAnalyst

/** Whether the service is among those the user manages. */
export const managesService = (access: Access | null | undefined, service: string) => access?.servicesManaged?.includes(service) ?? false

/** A service's own switch on a company: is it turned on at all? */
export function serviceEnabledFor(company: CompanyFlags, service: ServiceId): boolean {
  switch (service) {
    case 'projectmariana':
      return !!(company.enableViewProjectMarianaResults || company.enableViewProjectMarianaStats)
    case 'dast':
      return !!company.enableDast
    case 'network':
      return !!company.enableViewResultsNetwork
    case 'cloud':
      return !!(company.enableViewCloudScanStats || company.enableViewCloudScanResults)
    case 'password_cracking':
      return !!company.enableViewResultsPasswordCracking
  }
}

const knownService = (name: string): name is ServiceId => services.some((s) => s.id === name)

/**
 * Service visibility: the company's switch is on, and the user is a client manager or above or
 * has the service enabled for them. No company document means no. `dast-triggering` also needs
 * the company's triggering switch.
 */
export function canViewService(
  access: Access | null | undefined,
  company: CompanyFlags | null | undefined,
  service: string,
  feature?: 'dast-triggering',
): boolean {
  if (!company || !knownService(service)) return false
  if (!serviceEnabledFor(company, service)) return false
  if (feature === 'dast-triggering' && !(service === 'dast' && company.enableDastTriggering)) return false
  return hasLevel(access, LEVEL.clientManager) || (access?.servicesEnabled?.includes(service) ?? false)
}

/**
 * A service's results switch: findings, assets, retests and comments. Project Mariana and cloud
 * also have a stats switch that shows KPIs and charts only; the other services have one switch,
 * which is their results switch.
 */
export function resultsEnabledFor(company: CompanyFlags, service: ServiceId): boolean {
  switch (service) {
    case 'projectmariana':
      return !!company.enableViewProjectMarianaResults
    case 'cloud':
      return !!company.enableViewCloudScanResults
    default:
      return serviceEnabledFor(company, service)
  }
}

/** Reports of one service: visible for the company, or through the override. */
export const canViewReport = (access: Access | null | undefined, company: CompanyFlags | null | undefined, service: string) =>
  knownService(service) && hasLevel(access, LEVEL.clientViewer) && (hasReportsOverride(access) || canViewService(access, company, service))

/**
 * A service's results (findings, assets, retests, comments) and not only its stats: the report is
 * visible and the company has the results switch on. The override sees results too.
 */
export const canViewResults = (access: Access | null | undefined, company: CompanyFlags | null | undefined, service: string) =>
  canViewReport(access, company, service) && (hasReportsOverride(access) || (!!company && resultsEnabledFor(company, service as ServiceId)))

export interface Context {
  access: Access | null | undefined
  company: CompanyFlags | null | undefined
}

type Rule = (context: Context, param?: string) => boolean

const level =
  (n: number): Rule =>
  ({ access }) =>
    hasLevel(access, n)

/**
 * The rule of every page that needs a signed-in user, by site-map path.
 * `$service` pages receive the service id (e.g. 'password_cracking', also on analyst pages whose
 * path says 'password-cracking').
 */
export const pageRules: Readonly<Record<string, Rule>> = {
  '/reports': ({ access, company }) => hasLevel(access, LEVEL.clientViewer) && services.some((s) => canViewReport(access, company, s.id)),
  '/reports/$service': ({ access, company }, service = '') => canViewReport(access, company, service),
  // The page says itself when the company's results are closed to the reader (stats only).
  '/reports/$service/$findingId': ({ access, company }, service = '') => canViewReport(access, company, service),
  '/templates': level(LEVEL.seniorAnalyst),
  '/templates/finding': level(LEVEL.seniorAnalyst),
  '/analyst': level(LEVEL.analyst),
  '/analyst/services/$service': ({ access }, service = '') =>
    knownService(service) &&
    (hasLevel(access, LEVEL.seniorAnalyst) ||
      (service === 'password_cracking' && hasLevel(access, LEVEL.analyst) && managesService(access, service))),
  '/analyst/vault/link': level(LEVEL.analyst),
  '/analyst/vault/request': level(LEVEL.analyst),
  '/analyst/agents': level(LEVEL.seniorAnalyst),
  '/analyst/locations': level(LEVEL.seniorAnalyst),
  '/admin': level(LEVEL.companyAdmin),
  '/admin/company/create-company': level(LEVEL.seniorAnalyst),
  '/admin/company': level(LEVEL.seniorAnalyst),
  '/admin/app/users': level(LEVEL.platformAdmin),
  '/admin/app/services': level(LEVEL.platformAdmin),
  '/admin/keys_email': level(LEVEL.platformAdmin),
  '/admin/company/manage-users': level(LEVEL.companyAdmin),
  '/admin/api-tokens': level(LEVEL.companyAdmin),
  '/admin/webhooks': level(LEVEL.companyAdmin),
  '/admin/dast': ({ access, company }) =>
    hasLevel(access, LEVEL.companyAdmin) && canViewService(access, company, 'dast', 'dast-triggering'),
  '/profile': level(LEVEL.clientViewer),
}

/** Templates and tags are edited by those who may open the templates page. */
export const mayEditTemplates = (access: Access | null | undefined) => pageRules['/templates']?.({ access, company: null }) ?? false

/** Vault share and request links are made and revoked by those who may open their pages (level 5). */
export const mayUseVault = (access: Access | null | undefined) => pageRules['/analyst/vault/link']?.({ access, company: null }) ?? false

/**
 * The analysts of a company's engagement: those who may use the vault and select the company (it
 * is one of theirs, or they see every company). A request shared with the engagement opens for
 * them (decision 0022); `selects` is the company check, made apart as for reports.
 */
export const isEngagementAnalyst = (access: Access | null | undefined, selects: boolean) => selects && mayUseVault(access)

/**
 * Who someone is to a company's findings (decision 0016): client staff by level, analysts as
 * analysts whatever their level. Company membership and the results switch are checked apart
 * (canViewResults); this says which workflow moves the person may make there.
 */
export type FindingRole = 'viewer' | 'manager' | 'company-admin' | 'analyst'

export function findingRole(access: Access | null | undefined): FindingRole | null {
  if (isAnalyst(access)) return hasLevel(access, LEVEL.analyst) ? 'analyst' : null
  if (hasLevel(access, LEVEL.companyAdmin)) return 'company-admin'
  if (hasLevel(access, LEVEL.clientManager)) return 'manager'
  if (hasLevel(access, LEVEL.clientViewer)) return 'viewer'
  return null
}

/** Comments only analysts see are written and read by analysts. */
export const seesInternalComments = (access: Access | null | undefined) => findingRole(access) === 'analyst'

/** Companies are created, switched and scoped by those who may open their pages (level 7). */
export const mayManageCompanies = (access: Access | null | undefined) => pageRules['/admin/company']?.({ access, company: null }) ?? false

/** The platform's service catalogue is kept by those who may open its page (level 9). */
export const mayManageServiceCatalogue = (access: Access | null | undefined) =>
  pageRules['/admin/app/services']?.({ access, company: null }) ?? false

/** DAST keys: company admins and above ask; each company's keys also need its page's rule there (mayManageDastKeysOf). */
export const mayManageDastKeys = (access: Access | null | undefined) => hasLevel(access, LEVEL.companyAdmin)

/** A company's DAST keys: someone who may select the company and open the DAST keys page for it. */
export const mayManageDastKeysOf = (access: Access | null | undefined, company: CompanyFlags | null | undefined, selects: boolean) =>
  selects && (pageRules['/admin/dast']?.({ access, company }) ?? false)

/**
 * A company's audit trail, shown on /admin and on the company's page: platform admins, the senior
 * analysts who may open every company's page, and the company's own admins (level 3, members).
 */
export const maySeeCompanyAudit = (access: Access | null | undefined, member: boolean) =>
  hasLevel(access, LEVEL.platformAdmin) || seesAllCompanies(access) || (member && hasLevel(access, LEVEL.companyAdmin))

/**
 * One audit event: a company's as its trail says; one without a company (the fleet's, audience
 * 'analysts', or the platform's) for platform admins and, for the fleet's, the senior analysts who keep it.
 */
export function maySeeAuditEvent(
  access: Access | null | undefined,
  event: { companyId: string | null; audience: 'analysts' | 'platform' },
  companies: readonly string[],
): boolean {
  if (hasLevel(access, LEVEL.platformAdmin)) return true
  if (event.companyId !== null) return maySeeCompanyAudit(access, companies.includes(event.companyId))
  return event.audience === 'analysts' && seesAllCompanies(access)
}

/**
 * What a company API token may do (decision 0050): read findings and scans, change findings
 * (retests, risk acceptance, comments), trigger DAST scans. A token is not a person and has no level of its own.
 */
export const API_SCOPES = ['findings:read', 'findings:write', 'dast:trigger'] as const
export type ApiScope = (typeof API_SCOPES)[number]

/**
 * Within its scopes a token sees its company as a client manager does: every service the company
 * has turned on, results only where the results switch is on. Never another company's.
 */
export const API_TOKEN_ACCESS: Access = { accessLevel: LEVEL.clientManager, userType: 'client' }

/** A service's findings and scans, through a token of the company. */
export const tokenMayReadResults = (scopes: readonly ApiScope[], company: CompanyFlags | null | undefined, service: string) =>
  scopes.includes('findings:read') && canViewResults(API_TOKEN_ACCESS, company, service)

/**
 * A finding's retest requests, risk acceptance requests and comments, through a token of the
 * company: the scope, on results the token may see, with a client manager's moves of the
 * findings workflow (findingRole of API_TOKEN_ACCESS).
 */
export const tokenMayChangeFindings = (scopes: readonly ApiScope[], company: CompanyFlags | null | undefined, service: string) =>
  scopes.includes('findings:write') && canViewResults(API_TOKEN_ACCESS, company, service)

/** DAST scans triggered through a token: the scope, and the company's triggering switch, as for DAST keys. */
export const tokenMayTriggerDast = (scopes: readonly ApiScope[], company: CompanyFlags | null | undefined) =>
  scopes.includes('dast:trigger') && canViewService(API_TOKEN_ACCESS, company, 'dast', 'dast-triggering')

/** API tokens: company admins and above ask; each company's tokens also need its page's rule there (mayManageApiTokensOf). */
export const mayManageApiTokens = (access: Access | null | undefined) => hasLevel(access, LEVEL.companyAdmin)

/** A company's API tokens: someone who may select the company and open the API tokens page. */
export const mayManageApiTokensOf = (access: Access | null | undefined, company: CompanyFlags | null | undefined, selects: boolean) =>
  selects && (pageRules['/admin/api-tokens']?.({ access, company }) ?? false)

/** Webhook endpoints (decision 0056): company admins and above ask; each company's also need its page's rule there (mayManageWebhooksOf). */
export const mayManageWebhooks = (access: Access | null | undefined) => hasLevel(access, LEVEL.companyAdmin)

/** A company's webhook endpoints and their delivery log: someone who may select the company and open the webhooks page. */
export const mayManageWebhooksOf = (access: Access | null | undefined, company: CompanyFlags | null | undefined, selects: boolean) =>
  selects && (pageRules['/admin/webhooks']?.({ access, company }) ?? false)
