// What the analyst's desk shows for one company: per service the analyst may import, the drafts
// waiting to be published, the retests clients asked for, the findings they dispute and the
// latest imports. Pure: the listeners (desk-live.ts) fill it, the page and its tests read it.
import type { Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { Finding } from '#domain/findings.ts'
import type { Retest } from '#domain/retests.ts'
import { mayImportScans } from '#domain/scan-import-calls.ts'
import type { Scan } from '#domain/scans.ts'
import type { Capped, Counted } from '~/core/watch-query'
import { serviceEnabledFor } from '#domain/access.ts'
import { services, type ServiceId } from '#domain/services.ts'

/** How many of each a service's listeners follow: a desk, not an archive (the page says when one holds more). */
export const DESK_LIMITS = { drafts: 20, retests: 50, disputed: 50, scans: 15 } as const

/** The retests waiting, the soonest due first, with how many wait and how many of them are overdue. */
export interface DeskRetests extends Counted<Retest> {
  overdue: number
}

/** Each list is capped: `more` says it holds more than it shows, `total` counts them all. */
export interface DeskService {
  service: ServiceId
  drafts: Counted<Scan>
  retests: DeskRetests
  disputed: Counted<Finding>
  /** The service's latest scans, any state; imports are those with files. */
  scans: Capped<Scan>
}

export interface DeskData {
  company: string
  services: DeskService[]
}

/** The services of the company whose scans this person may import, in the product's order. */
export const deskServices = (access: Access | null | undefined, company: Company | null | undefined): ServiceId[] =>
  company ? services.filter((s) => serviceEnabledFor(company, s.id) && mayImportScans(access, s.id)).map((s) => s.id) : []

export interface DraftRow {
  service: ServiceId
  scan: Scan
  /** When the import made it: the draft's first write. */
  importedAt: number
  findings: number
}

/** Drafts waiting to be published, oldest import first: the longest wait is on top. */
export function draftRows(data: DeskData): DraftRow[] {
  return data.services
    .flatMap(({ service, drafts }) =>
      drafts.items.map((scan) => ({
        service,
        scan,
        importedAt: scan.updatedAt,
        findings: scan.importReport?.findings ?? scan.counts.total,
      })),
    )
    .sort((a, b) => a.importedAt - b.importedAt || a.scan.id.localeCompare(b.scan.id))
}

export interface RetestRow {
  service: ServiceId
  retest: Retest
  overdue: boolean
}

/** Retests clients asked for, the earliest deadline first; past deadlines are overdue. */
export function retestRows(data: DeskData, now: number): RetestRow[] {
  return data.services
    .flatMap(({ service, retests }) => retests.items.map((retest) => ({ service, retest, overdue: retest.dueAt < now })))
    .sort((a, b) => a.retest.dueAt - b.retest.dueAt || a.retest.id.localeCompare(b.retest.id))
}

export interface DisputedRow {
  service: ServiceId
  finding: Finding
}

/** Findings clients dispute, the longest waiting first. */
export function disputedRows(data: DeskData): DisputedRow[] {
  return data.services
    .flatMap(({ service, disputed }) => disputed.items.map((finding) => ({ service, finding })))
    .sort((a, b) => a.finding.updatedAt - b.finding.updatedAt || a.finding.id.localeCompare(b.finding.id))
}

/** Scans that came from files, newest first. */
export function latestImports(data: DeskData, count = 8): { service: ServiceId; scan: Scan }[] {
  return data.services
    .flatMap(({ service, scans }) => scans.items.filter((s) => s.files.length > 0).map((scan) => ({ service, scan })))
    .sort((a, b) => b.scan.startedAt - a.scan.startedAt || a.scan.id.localeCompare(b.scan.id))
    .slice(0, count)
}

/** Which of the desk's lists hold more than they show, for the line under each. */
export function deskCaps(data: DeskData): { drafts: boolean; retests: boolean; disputed: boolean; imports: boolean } {
  const any = (part: 'drafts' | 'retests' | 'disputed' | 'scans') => data.services.some((s) => s[part].more)
  return { drafts: any('drafts'), retests: any('retests'), disputed: any('disputed'), imports: any('scans') }
}
