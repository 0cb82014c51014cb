// Searching a company's findings (decision 0038): one index for every company, one record
// per finding, and the secured key's filter that keeps a person inside one company and the
// services whose results they may see. The functions (trigger, keys), the seed and the app import it.
import type { IndexSettings } from 'algoliasearch'
import { canViewResults, type Access, type CompanyFlags } from './access.ts'
import { alphabeticalOrderFields, alphabeticalOrderKeys } from './alphabetical-order.ts'
import { FINDING_SORTS, type FindingSort, type FindingSortColumn } from './finding-sorts.ts'
import { FINDING_STATUSES } from './finding-statuses.ts'
import { OPEN_STATUSES, type Finding, type FindingStatus } from './findings.ts'
import { services, type ServiceId } from './services.ts'
import { applyIndexSettings, type IndexSettingsClient, type IndexSettingsList } from './template-search.ts'
import { severityRank, type Severity } from './template-vocabulary.ts'

export const FINDINGS_INDEX = 'findings'

/**
 * How long a findings search key works. A secured key cannot be revoked, so this is how long
 * someone who lost access (left the company, demoted, results switched off) can still search
 * with the key they hold; the browser renews it before it expires.
 */
export const FINDINGS_SEARCH_KEY_LIFETIME_SECONDS = 5 * 60

/**
 * What the index holds of a finding: what the findings table shows, filters, counts and sorts by
 * (the keys are given only to people who see the service's results).
 */
export interface FindingSearchRecord {
  objectID: string
  findingId: string
  company: string
  service: ServiceId
  title: string
  severity: Finding['severity']
  severityRank: number
  status: Finding['status']
  statusRank: number
  asset: string
  tags: string[]
  cwe: string[]
  templateSlug: string | null
  regression: boolean
  lastSeenAt: number
  sla: { startedAt: number; dueAt: number | null; pausedAt: number | null }
  closedAt: number | null
  /** The running deadline: null once closed, while paused, or without one (sorted last). */
  slaDueAt: number | null
  /** One of its CVEs is in CISA's KEV catalogue (a facet: the table's "Known exploited"). */
  kev: boolean
  /** Its CVEs' highest EPSS score and percentile; null without one (sorted last). */
  epss: number | null
  epssPercentile: number | null
  /** Title and asset in alphabetical order as numbers (alphabeticalOrder): the search service sorts by numbers only. */
  titleOrder0: number
  titleOrder1: number
  titleOrder2: number
  assetOrder0: number
  assetOrder1: number
  assetOrder2: number
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
    statusRank: FINDING_STATUSES.indexOf(finding.status),
    asset: finding.asset,
    tags: [...finding.tags],
    cwe: [...finding.cwe],
    templateSlug: finding.templateSlug ?? null,
    regression: finding.regression,
    lastSeenAt: finding.lastSeenAt,
    sla: { startedAt: finding.sla.startedAt, dueAt: finding.sla.dueAt, pausedAt: finding.sla.pausedAt ?? null },
    closedAt: finding.closedAt ?? null,
    slaDueAt: finding.closedAt == null && finding.sla.pausedAt == null ? finding.sla.dueAt : null,
    kev: finding.intel?.kev ?? false,
    epss: finding.intel?.epss ?? null,
    epssPercentile: finding.intel?.epssPercentile ?? null,
    ...alphabeticalOrderFields('title', finding.title),
    ...alphabeticalOrderFields('asset', finding.asset),
  }
}

/** Each column in its first order (severity: most severe first; the others ascending). */
const COLUMN_RANKING: Record<FindingSortColumn, { attributes: string[]; first: 'asc' | 'desc' }> = {
  severity: { attributes: ['severityRank'], first: 'desc' },
  title: { attributes: alphabeticalOrderKeys('title'), first: 'asc' },
  asset: { attributes: alphabeticalOrderKeys('asset'), first: 'asc' },
  status: { attributes: ['statusRank'], first: 'asc' },
  sla: { attributes: ['slaDueAt'], first: 'asc' },
  lastSeen: { attributes: ['lastSeenAt'], first: 'asc' },
  // The likeliest to be exploited first.
  epss: { attributes: ['epss'], first: 'desc' },
}

/** Equal on the column: the more severe, then the more recently seen, first. */
const TIE_BREAK = ['desc(severityRank)', 'desc(lastSeenAt)']

function sortRanking(sort: FindingSort): string[] {
  const reversed = sort.startsWith('-')
  const { attributes, first } = COLUMN_RANKING[(reversed ? sort.slice(1) : sort) as FindingSortColumn]
  const direction = (first === 'asc') !== reversed ? 'asc' : 'desc'
  return [
    ...attributes.map((attribute) => `${direction}(${attribute})`),
    ...TIE_BREAK.filter((c) => !attributes.some((a) => c.includes(`(${a})`))),
  ]
}

/**
 * The index that answers a sort: a virtual replica for each (the primary ranks by relevance, for
 * the quick search, where the best match comes first).
 */
export const findingsSortIndex = (sort: FindingSort): string =>
  `${FINDINGS_INDEX}_by_${sort.startsWith('-') ? `${sort.slice(1)}_reversed` : sort}`

/** Every index a findings key may query: the primary and its sort replicas. */
export const FINDINGS_INDEX_NAMES: readonly string[] = [FINDINGS_INDEX, ...FINDING_SORTS.map(findingsSortIndex)]

/** What the text search looks in, the most important first: for the table, the quick search and the exports alike. */
export const FINDING_SEARCHABLE_ATTRIBUTES = ['title', 'asset', 'tags', 'cwe', 'templateSlug'] as const
export type FindingSearchText = Pick<Finding, (typeof FINDING_SEARCHABLE_ATTRIBUTES)[number]>

/**
 * How the text search matches: every word of the query begins a word of the finding, no typo
 * allowed (which also turns off the service's splitting and joining of words), so that
 * `findingTextMatcher` can say exactly which findings a search holds. Each sort replica is given
 * it too: a replica keeps the settings it was created with when its primary's change.
 */
const TEXT_MATCHING = { queryType: 'prefixAll', typoTolerance: false } as const satisfies IndexSettings

/** A sort's replica settings: a strict order by the column whatever the text search (relevancyStrictness 0). */
const replicaSettings = (sort: FindingSort): IndexSettings => ({
  customRanking: sortRanking(sort),
  relevancyStrictness: 0,
  ...TEXT_MATCHING,
})

export const FINDINGS_INDEX_SETTINGS: IndexSettings = {
  searchableAttributes: [...FINDING_SEARCHABLE_ATTRIBUTES],
  ...TEXT_MATCHING,
  // company and service are what secured keys filter on: they must be facets to filter at all.
  // title and asset are the table's groups: their values and counts come from the facets.
  attributesForFaceting: [
    'filterOnly(company)',
    'filterOnly(service)',
    'severity',
    'status',
    'searchable(tags)',
    'searchable(asset)',
    'title',
    'kev',
  ],
  // Equally relevant: the more severe, then the more recently seen, first.
  customRanking: TIE_BREAK,
  replicas: FINDING_SORTS.map((sort) => `virtual(${findingsSortIndex(sort)})`),
  // How deep the table pages in one order; past it the table says so (and how to narrow).
  paginationLimitedTo: 5000,
}

/**
 * A text's words as the search service splits them (no separatorsToIndex): runs of letters and
 * digits, anything else between them a separator; case and accents ignored.
 */
export const searchWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)

/**
 * Whether a finding matches `query` as the index matches it (TEXT_MATCHING over
 * FINDING_SEARCHABLE_ATTRIBUTES): every word of the query begins a word of one of those
 * attributes. An empty query matches every finding. The exports keep the findings it matches.
 */
export function findingTextMatcher(query: string): (finding: FindingSearchText) => boolean {
  const wanted = searchWords(query)
  if (wanted.length === 0) return () => true
  return (finding) => {
    const words = FINDING_SEARCHABLE_ATTRIBUTES.flatMap((attribute) => [finding[attribute] ?? []].flat().flatMap(searchWords))
    return wanted.every((word) => words.some((candidate) => candidate.startsWith(word)))
  }
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

/** The findings index and its replicas with their settings, the primary first (it declares the replicas). */
export const FINDINGS_INDEX_SETTINGS_LIST: IndexSettingsList = [
  [FINDINGS_INDEX, FINDINGS_INDEX_SETTINGS],
  ...FINDING_SORTS.map((sort) => [findingsSortIndex(sort), replicaSettings(sort)] as const),
]

/** What the findings table asks of the index: facets chosen, text and order (its address bar). */
export interface FindingsQuery {
  service: ServiceId
  severity?: readonly Severity[] | undefined
  status?: readonly FindingStatus[] | undefined
  asset?: readonly string[] | undefined
  tag?: readonly string[] | undefined
  /** Only the findings with a CVE known to be exploited (KEV). */
  kev?: boolean | undefined
  q?: string | undefined
  sort?: FindingSort | undefined
}

export type FindingsFacet = 'severity' | 'status' | 'asset' | 'tag'
const FACET_ATTRIBUTES: Record<FindingsFacet, string> = { severity: 'severity', status: 'status', asset: 'asset', tag: 'tags' }

/** The statuses a query covers: those it names, else the open ones. */
export const queriedStatuses = (query: Pick<FindingsQuery, 'status'>): readonly FindingStatus[] =>
  query.status?.length ? query.status : OPEN_STATUSES

/** A facet filter's value as the search service reads it: a leading minus would negate it. */
const facetFilter = (attribute: string, value: string) => `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`

/**
 * The query's facet filters: OR within a facet, AND across them, the service always and the open
 * statuses unless statuses are chosen. `omit` leaves out one facet's choice, for that facet's
 * own counts (a chosen severity still shows how many the other severities hold).
 */
export function findingsFacetFilters(query: FindingsQuery, omit?: FindingsFacet): string[][] {
  const filters: string[][] = [[facetFilter('service', query.service)]]
  const chosen: Record<FindingsFacet, readonly string[] | undefined> = {
    severity: query.severity,
    status: queriedStatuses(query),
    asset: query.asset,
    tag: query.tag,
  }
  for (const facet of Object.keys(FACET_ATTRIBUTES) as FindingsFacet[]) {
    const values = chosen[facet]
    if (facet === omit || !values?.length) continue
    filters.push(values.map((value) => facetFilter(FACET_ATTRIBUTES[facet], value)))
  }
  if (query.kev) filters.push(['kev:true'])
  return filters
}

/** Gives the findings index its settings when they differ; true when it wrote them. */
export const applyFindingsIndexSettings = async (client: IndexSettingsClient): Promise<boolean> =>
  (await applyIndexSettings(client, FINDINGS_INDEX_SETTINGS_LIST)).length > 0

/** Rows per page the table asks for as it scrolls. */
export const FINDINGS_PAGE_SIZE = 100
/** Values offered for the asset and tag filters (the most frequent under the other filters). */
export const FACET_OPTIONS_SHOWN = 200
/** Groups listed when grouping by finding or asset (the largest first). */
export const GROUPS_SHOWN = 1000

export type FindingsGroupBy = 'title' | 'asset'

/** What a table row needs of a record. */
export const FINDING_ROW_ATTRIBUTES = [
  'findingId',
  'title',
  'severity',
  'status',
  'asset',
  'tags',
  'regression',
  'lastSeenAt',
  'sla',
  'closedAt',
  'kev',
  'epss',
  'epssPercentile',
] as const
export type FindingRowHit = Pick<FindingSearchRecord, (typeof FINDING_ROW_ATTRIBUTES)[number]>

/** One query of a multi-query request, as the search service takes it. */
export interface FindingsSearchRequest {
  indexName: string
  query: string
  facetFilters?: string[][]
  hitsPerPage: number
  page?: number
  facets?: string[]
  maxValuesPerFacet?: number
  attributesToRetrieve?: string[]
  attributesToHighlight: string[]
}

const within = (query: FindingsQuery, group?: { by: FindingsGroupBy; value: string }) =>
  group ? [...findingsFacetFilters(query), [facetFilter(group.by, group.value)]] : findingsFacetFilters(query)

/** One page of rows in the query's order (inside one group when given). */
export const findingsPageRequest = (
  query: FindingsQuery,
  page: number,
  group?: { by: FindingsGroupBy; value: string },
): FindingsSearchRequest => ({
  indexName: findingsSortIndex(query.sort ?? 'severity'),
  query: query.q?.trim() ?? '',
  facetFilters: within(query, group),
  hitsPerPage: FINDINGS_PAGE_SIZE,
  page,
  attributesToRetrieve: [...FINDING_ROW_ATTRIBUTES],
  attributesToHighlight: [],
})

/**
 * The figures around the rows, in one round trip: the total and the asset and tag options (and
 * the groups) under every filter; the severity and the status counts each without its own choice.
 */
export function findingsSummaryRequests(query: FindingsQuery, groupBy?: FindingsGroupBy): FindingsSearchRequest[] {
  const counts = (facets: string[], omit?: FindingsFacet, maxValuesPerFacet?: number): FindingsSearchRequest => ({
    indexName: FINDINGS_INDEX,
    query: query.q?.trim() ?? '',
    facetFilters: findingsFacetFilters(query, omit),
    hitsPerPage: 0,
    facets,
    ...(maxValuesPerFacet ? { maxValuesPerFacet } : {}),
    attributesToHighlight: [],
  })
  return [
    counts(['asset', 'tags'], undefined, FACET_OPTIONS_SHOWN),
    counts(['severity'], 'severity'),
    counts(['status'], 'status'),
    ...(groupBy ? [counts([groupBy], undefined, GROUPS_SHOWN)] : []),
  ]
}

export { FINDING_SORT_COLUMNS, FINDING_SORTS, type FindingSort, type FindingSortColumn } from './finding-sorts.ts'
