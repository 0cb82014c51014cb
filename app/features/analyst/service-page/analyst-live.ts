// The analyst service page's live data in the browser (loaded with `import()`: Firestore SDK):
// the service's scans in every state, a draft's findings (a page at a time, with their totals), the
// retests waiting on the analysts, the template library to map findings to and the service's rule
// mappings.
import { collection, documentId, orderBy, query, where } from 'firebase/firestore'
import {
  agentFromDocument,
  AGENTS_COLLECTION,
  locationFromDocument,
  LOCATIONS_COLLECTION,
  type Agent,
  type Location,
} from '#domain/agents.ts'
import { SCAN_JOBS_COLLECTION, scanJobFromDocument, type ScanJob } from '#domain/scan-jobs.ts'
import { scanScopeFromDocument, scanScopePath, type ScopeEntry } from '#domain/scan-scope.ts'
import { firestore } from '~/core/firebase'
import { retestFromDocument, retestsPath, type Retest } from '#domain/retests.ts'
import { draftFindingFromDocument, draftFindingsPath, type DraftFinding } from '#domain/scan-drafts.ts'
import { scanFromDocument, scanPath, scansPath, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import {
  templateMappingFromDocument,
  TEMPLATE_MAPPINGS_COLLECTION,
  type TemplateChoice,
  type TemplateMapping,
} from '#domain/template-mappings.ts'
import { combine } from '~/core/combine'
import type { Watch } from '~/core/live-data'
import { capped, countOf, watchDocument, watchPages, watchQuery, type Capped, type Paged } from '~/core/watch-query'
import { narrows, type DraftFilter } from './draft-filter'

/** Scans listed on the page, newest first. */
export const SCANS_LISTED = 30
/** Draft findings read at a time ("show more" adds as many again). */
export const DRAFT_FINDINGS_PAGE = 100
/** Retest requests listed, the soonest due first. */
export const RETESTS_LISTED = 50
/** Scan jobs listed, newest first. */
export const SCAN_JOBS_LISTED = 10

/** A watch whose values come in `order`. */
const sorted =
  <T>(watch: Watch<T[]>, order: (a: T, b: T) => number): Watch<T[]> =>
  (next, fail) =>
    watch((values) => next([...values].sort(order)), fail)

/** The service's latest scans, newest first. */
export const watchServiceScans = (company: string, service: ServiceId): Watch<Capped<Scan>> =>
  capped(SCANS_LISTED, (cap) =>
    watchQuery(scansPath(company), scanFromDocument, where('service', '==', service), orderBy('startedAt', 'desc'), cap),
  )

/** One scan, followed on its own when it is older than the scans listed (a link to it). */
export const watchScan = (company: string, id: string): Watch<Scan | null> => watchDocument(scanPath(company, id), scanFromDocument)

/** A scan listed with the company it belongs to (the "All companies" list). */
export type CompanyScan = Scan & { company: string }

/**
 * The service's latest scans of several companies at once, newest first: each company gives its
 * latest as many as are listed, so the newest of them all are exactly those.
 */
export function watchCompaniesScans(companies: readonly string[], service: ServiceId): Watch<Capped<CompanyScan>> {
  const parts = Object.fromEntries(companies.map((company) => [company, watchServiceScans(company, service)]))
  return combine(parts, (values) => {
    const all = Object.entries(values)
      .flatMap(([company, scans]) => (scans as Capped<Scan>).items.map((scan) => ({ ...scan, company })))
      .sort((a, b) => b.startedAt - a.startedAt)
    return {
      items: all.slice(0, SCANS_LISTED),
      more: all.length > SCANS_LISTED || Object.values(values).some((scans) => (scans as Capped<Scan>).more),
    }
  })
}

/**
 * Paged lists read one after the other as one list: the next starts once the one before has
 * nothing more and fewer than asked for are shown, so "show more" runs on into the next.
 */
const pagedInSequence =
  <T>(parts: readonly Watch<Paged<T>>[], pageSize: number): Watch<Paged<T>> =>
  (next, fail) => {
    /** What each started part shows (null until it answers). */
    const values: (Paged<T> | null)[] = []
    const stops: (() => void)[] = []
    let wanted = pageSize
    let stopped = false
    const start = (index: number) => {
      values[index] = null
      stops[index] = parts[index]!((value) => {
        values[index] = value
        settle()
      }, fail)
    }
    const settle = () => {
      if (stopped) return
      const last = values.at(-1)
      const items = values.flatMap((value) => value?.items ?? [])
      const exhausted = last != null && !last.loading && !last.more
      if (exhausted && items.length < wanted && values.length < parts.length) return start(values.length)
      if (last === null && values.length === 1) return
      const grow = (more: () => void) => () => {
        wanted = items.length + pageSize
        more()
      }
      next({
        items,
        loading: values.some((value) => value === null || value.loading),
        more: last?.more ? grow(last.more) : exhausted && values.length < parts.length ? grow(() => start(values.length)) : null,
      })
    }
    start(0)
    return () => {
      stopped = true
      stops.forEach((stop) => stop())
    }
  }

/** A draft's findings shown, and how many there are in all. */
export interface DraftFindingsView extends Paged<DraftFinding> {
  /** Counted on the server: every finding of the draft, those still needing a template, those the filter matches. */
  totals: { all: number; unmapped: number; matching: number }
}

/** Same findings, same versions, same order. */
const sameStart = (before: readonly DraftFinding[], after: readonly DraftFinding[]) =>
  before.every((finding, i) => after[i]?.id === finding.id && after[i].updatedAt === finding.updatedAt)

/**
 * A draft's findings the filter keeps, the most severe first (by fingerprint within a severity), a
 * page at a time, with their totals counted on the server (an aggregate: no document is read). The
 * totals are counted again whenever a listed finding changes (a review), not when a page is added.
 * Only equality filters and the document order: Firestore merges the automatic indexes.
 */
export function watchDraftFindings(
  company: string,
  scanId: string,
  filter: DraftFilter,
  pageSize = DRAFT_FINDINGS_PAGE,
): Watch<DraftFindingsView> {
  const path = draftFindingsPath(company, scanId)
  const unmapped = () => [where('templateSlug', '==', null), where('falsePositive', '==', false), where('mergedInto', '==', null)]
  const kept = () => [
    ...(filter.show === 'unmapped' ? unmapped() : filter.show === 'false_positive' ? [where('falsePositive', '==', true)] : []),
    ...(filter.ruleId ? [where('ruleId', '==', filter.ruleId)] : []),
  ]
  const severities = filter.severity ? [filter.severity] : SEVERITIES
  const pages = pagedInSequence(
    severities.map((severity) =>
      watchPages(path, draftFindingFromDocument, pageSize, where('severity', '==', severity), ...kept(), orderBy(documentId())),
    ),
    pageSize,
  )
  const count = (...constraints: ReturnType<typeof where>[]) => countOf(query(collection(firestore(), path), ...constraints))
  const totals = async (): Promise<DraftFindingsView['totals']> => {
    const [all, unmappedCount, matching] = await Promise.all([
      count(),
      count(...unmapped()),
      narrows(filter) ? count(...(filter.severity ? [where('severity', '==', filter.severity)] : []), ...kept()) : null,
    ])
    return { all, unmapped: unmappedCount, matching: matching ?? all }
  }

  return (next, fail) => {
    let stopped = false
    let round = 0
    let counted: DraftFindingsView['totals'] | null = null
    let shown: Paged<DraftFinding> | null = null
    const publish = () => {
      if (!stopped && shown && counted) next({ ...shown, totals: counted })
    }
    const stop = pages((value) => {
      const recount = !shown || !sameStart(shown.items, value.items)
      shown = value
      publish()
      if (!recount) return
      const mine = ++round
      totals().then(
        (figures) => {
          if (mine !== round) return
          counted = figures
          publish()
        },
        (error: unknown) => {
          if (!stopped) fail(error instanceof Error ? error : new Error(String(error)))
        },
      )
    }, fail)
    return () => {
      stopped = true
      stop()
    }
  }
}

/** Draft findings merged into one, listed in its detail. */
export const MERGED_LISTED = 100

/** The draft findings merged into `into` (published as it), the first MERGED_LISTED by id. */
export const watchMergedFindings = (company: string, scanId: string, into: string): Watch<Capped<DraftFinding>> =>
  capped(MERGED_LISTED, (cap) =>
    watchQuery(draftFindingsPath(company, scanId), draftFindingFromDocument, where('mergedInto', '==', into), orderBy(documentId()), cap),
  )

/** Retest requests of the service waiting on the analysts, the soonest due first. */
export const watchRequestedRetests = (company: string, service: ServiceId): Watch<Capped<Retest>> =>
  capped(RETESTS_LISTED, (cap) =>
    watchQuery(
      retestsPath(company),
      retestFromDocument,
      where('service', '==', service),
      where('state', '==', 'requested'),
      orderBy('dueAt'),
      cap,
    ),
  )

function templateChoice(slug: string, data: unknown): TemplateChoice | null {
  const template = (data ?? {}) as { title?: unknown; cwe?: unknown; services?: unknown; status?: unknown }
  if (template.status === 'deprecated') return null
  const strings = (value: unknown) => (Array.isArray(value) ? value.map(String) : [])
  return { slug, title: String(template.title ?? slug), cwe: strings(template.cwe), services: strings(template.services) }
}

/** The templates findings may be mapped to (the library is a few hundred entries), by title. */
export const watchTemplateChoices = (): Watch<TemplateChoice[]> =>
  sorted(watchQuery(TEMPLATES_COLLECTION, templateChoice), (a, b) => a.title.localeCompare(b.title))

/** The service's rule-to-template mappings, by rule. */
export const watchTemplateMappings = (service: ServiceId): Watch<TemplateMapping[]> =>
  sorted(watchQuery(TEMPLATE_MAPPINGS_COLLECTION, templateMappingFromDocument, where('service', '==', service)), (a, b) =>
    a.ruleId.localeCompare(b.ruleId),
  )

/** Locations scans can be queued at, by name. */
export const watchLocations = (): Watch<Location[]> =>
  sorted(watchQuery(LOCATIONS_COLLECTION, locationFromDocument), (a, b) => a.name.localeCompare(b.name))

/** The fleet's agents, by name (senior analysts read them). */
export const watchAgents = (): Watch<Agent[]> =>
  sorted(watchQuery(AGENTS_COLLECTION, agentFromDocument), (a, b) => a.name.localeCompare(b.name))

/** The company's latest scan jobs of the service, newest first, followed live for their progress. */
export const watchScanJobs = (company: string, service: ServiceId): Watch<Capped<ScanJob>> =>
  capped(SCAN_JOBS_LISTED, (cap) =>
    watchQuery(
      SCAN_JOBS_COLLECTION,
      scanJobFromDocument,
      where('company', '==', company),
      where('service', '==', service),
      orderBy('createdAt', 'desc'),
      cap,
    ),
  )

/** The company's scan scope (the targets a scan may name); empty only once the server says it is. */
export const watchScanScope = (company: string): Watch<ScopeEntry[]> => {
  const scope = watchDocument(scanScopePath(company), (_id, data) => scanScopeFromDocument(data))
  return (next, fail) => scope((entries) => next(entries ?? []), fail)
}
