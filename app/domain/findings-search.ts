// Searching a company's findings (DESIGN.md section 7): one index for every company, one record
// per finding, and the secured key's filter that keeps a person inside one company and the
// services whose results they may see. The functions (trigger, keys), the seed and the app import it.
import type { IndexSettings } from 'algoliasearch'
import { canViewResults, type Access, type CompanyFlags } from './access.ts'
import type { Finding } from './findings.ts'
import { services, type ServiceId } from './services.ts'
import { applyIndexSettings, type IndexSettingsClient, type IndexSettingsList } from './template-search.ts'
import { severityRank } from './template-vocabulary.ts'

export const FINDINGS_INDEX = 'findings'

/**
 * How long a findings search key works. A secured key cannot be revoked, so this is how long
 * someone who lost access (left the company, demoted, results switched off) can still search
 * with the key they hold; the browser renews it before it expires.
 */
export const FINDINGS_SEARCH_KEY_LIFETIME_SECONDS = 5 * 60

/** What the index holds of a finding: enough to find it and link to it, nothing a stats-only reader could not be shown elsewhere. */
export interface FindingSearchRecord {
  objectID: string
  findingId: string
  company: string
  service: ServiceId
  title: string
  severity: Finding['severity']
  severityRank: number
  status: Finding['status']
  asset: string
  tags: string[]
  templateSlug: string | null
}

/** Fingerprints repeat across companies (the same issue in two of them): the record's id names both. */
export const findingObjectID = (company: string, findingId: string) => `${company}/${findingId}`

export function findingSearchRecord(company: string, finding: Finding): FindingSearchRecord {
  return {
    objectID: findingObjectID(company, finding.id),
    findingId: finding.id,
    company,
    service: finding.service,
    title: finding.title,
    severity: finding.severity,
    severityRank: severityRank[finding.severity],
    status: finding.status,
    asset: finding.asset,
    tags: [...finding.tags],
    templateSlug: finding.templateSlug ?? null,
  }
}

export const FINDINGS_INDEX_SETTINGS: IndexSettings = {
  searchableAttributes: ['title', 'asset', 'tags', 'templateSlug'],
  // company and service are what secured keys filter on: they must be facets to filter at all.
  attributesForFaceting: ['filterOnly(company)', 'filterOnly(service)', 'severity', 'status', 'searchable(tags)'],
  customRanking: ['desc(severityRank)'],
}

/** The services of `company` whose findings `access` may search: those whose results they may see. */
export const searchableServices = (access: Access, company: CompanyFlags | null | undefined): ServiceId[] =>
  services.filter((s) => canViewResults(access, company, s.id)).map((s) => s.id)

const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`

/**
 * The filter a findings key carries, ANDed by the search service with whatever the browser asks:
 * one company, and only the given services. Null when there is nothing to search.
 */
export function findingsKeyFilter(company: string, serviceIds: readonly string[]): string | null {
  if (serviceIds.length === 0) return null
  return `company:${quoted(company)} AND (${serviceIds.map((s) => `service:${quoted(s)}`).join(' OR ')})`
}

/** The findings index with its settings, as the search settings helper takes them. */
export const FINDINGS_INDEX_SETTINGS_LIST: IndexSettingsList = [[FINDINGS_INDEX, FINDINGS_INDEX_SETTINGS]]

/** Gives the findings index its settings when they differ; true when it wrote them. */
export const applyFindingsIndexSettings = async (client: IndexSettingsClient): Promise<boolean> =>
  (await applyIndexSettings(client, FINDINGS_INDEX_SETTINGS_LIST)).length > 0
