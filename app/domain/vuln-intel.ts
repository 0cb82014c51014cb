// Vulnerability intelligence (decision 0049): what the public feeds say of a CVE (CISA's Known
// Exploited Vulnerabilities catalogue, FIRST's EPSS scores), kept per CVE in vuln_intel/{cve} and
// summed up on each finding that names the CVE. Only the daily refresh (functions) and the seed
// write either; people read the finding's copy.
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'

export const VULN_INTEL_COLLECTION = 'vuln_intel'
export const vulnIntelPath = (cve: string) => `${VULN_INTEL_COLLECTION}/${cve}`

/** The public feeds (production); local runs and tests point the refresh at files on loopback. */
export const KEV_FEED_URL = 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json'
export const EPSS_FEED_URL = 'https://epss.empiricalsecurity.com/epss_scores-current.csv.gz'

/** A CVE id as MITRE writes it: the year, then four to seven digits. */
export const CVE_ID_PATTERN = /^CVE-\d{4}-\d{4,7}$/
export const CveIdSchema = v.pipe(v.string(), v.regex(CVE_ID_PATTERN, 'Expected a CVE id (CVE-YYYY-NNNN)'))

/** A calendar day as the KEV catalogue writes it. */
export const DaySchema = v.pipe(
  v.string(),
  v.isoDate('Expected a day (YYYY-MM-DD)'),
  // isoDate lets 2026-02-31 through.
  v.check((day) => {
    const time = Date.parse(`${day}T00:00:00Z`)
    return Number.isFinite(time) && new Date(time).toISOString().startsWith(day)
  }, 'Expected a day (YYYY-MM-DD)'),
)

/** EPSS gives both numbers between 0 and 1. */
export const UnitSchema = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1))

/** A CVE's entry in the KEV catalogue, as far as Bulwark uses it. */
export const KevEntrySchema = v.object({
  dateAdded: DaySchema,
  dueDate: DaySchema,
  /** The catalogue's knownRansomwareCampaignUse is "Known" or "Unknown". */
  ransomware: v.boolean(),
})
export type KevEntry = v.InferOutput<typeof KevEntrySchema>

/** What the feeds say of one CVE; null where a feed does not list it. */
export const CveIntelSchema = v.object({
  cve: CveIdSchema,
  kev: v.nullable(KevEntrySchema),
  epss: v.nullable(UnitSchema),
  percentile: v.nullable(UnitSchema),
})
export type CveIntel = v.InferOutput<typeof CveIntelSchema>

/** vuln_intel/{cve}: a CVE's intelligence and the feed editions it comes from. */
export const StoredVulnIntelSchema = v.object({
  ...CveIntelSchema.entries,
  /** The EPSS scores' day (the feed's score_date), when EPSS lists it. */
  epssDate: v.nullable(DaySchema),
  /** The KEV catalogue's version when it lists it. */
  kevVersion: v.nullable(v.string()),
  updatedAt: TimestampSchema,
})
export type StoredVulnIntel = v.InferOutput<typeof StoredVulnIntelSchema>

export function vulnIntelFromDocument(data: unknown): StoredVulnIntel | null {
  const parsed = v.safeParse(StoredVulnIntelSchema, data)
  return parsed.success ? parsed.output : null
}

/** At most this many CVEs of one finding are shown with their figures (the most pressing first). */
export const FINDING_INTEL_CVES = 20

/**
 * EPSS figures as findings keep them: rounded to a hundredth of a percentage point. The scores move in
 * their last digits every day; rounded, a day's refresh rewrites only the CVEs and findings whose
 * standing really changed.
 */
export const roundedUnit = (value: number | null): number | null => (value === null ? null : Math.round(value * 10_000) / 10_000)

/** On a finding: its CVEs' intelligence summed up (the table filters and sorts by it) and listed. */
export const FindingIntelSchema = v.object({
  /** One of its CVEs is known to be exploited. */
  kev: v.boolean(),
  /** The earliest date a CVE of it was added to KEV, and the earliest KEV due date. */
  kevDateAdded: v.nullable(DaySchema),
  kevDueDate: v.nullable(DaySchema),
  /** The highest EPSS score and percentile among its CVEs. */
  epss: v.nullable(UnitSchema),
  epssPercentile: v.nullable(UnitSchema),
  cves: v.pipe(v.array(CveIntelSchema), v.maxLength(FINDING_INTEL_CVES)),
  /** When the refresh last changed these figures. */
  refreshedAt: TimestampSchema,
})
export type FindingIntel = v.InferOutput<typeof FindingIntelSchema>

/** KEV first, then the higher EPSS score, then the id: the order a finding lists its CVEs in. */
const pressing = (a: CveIntel, b: CveIntel) =>
  Number(b.kev !== null) - Number(a.kev !== null) || (b.epss ?? -1) - (a.epss ?? -1) || a.cve.localeCompare(b.cve)

const earliest = (days: string[]) => (days.length ? days.reduce((a, b) => (b < a ? b : a)) : null)
const highest = (values: (number | null)[]) => {
  const known = values.filter((x): x is number => x !== null)
  return known.length ? Math.max(...known) : null
}

/**
 * A finding's intelligence from its CVEs' (`lookup` answers what the feeds say of one, or
 * undefined when neither lists it); null when no feed lists any of them.
 */
export function findingIntel(
  cves: readonly string[],
  lookup: (cve: string) => CveIntel | undefined,
  refreshedAt: number,
): FindingIntel | null {
  const known = [...new Set(cves)]
    .map(lookup)
    .filter((x): x is CveIntel => x !== undefined)
    // Keys in the schema's order, so stored and computed figures compare as text.
    .map((x) => ({
      cve: x.cve,
      kev: x.kev ? { dateAdded: x.kev.dateAdded, dueDate: x.kev.dueDate, ransomware: x.kev.ransomware } : null,
      epss: roundedUnit(x.epss),
      percentile: roundedUnit(x.percentile),
    }))
    .sort(pressing)
  if (known.length === 0) return null
  const kev = known.flatMap((x) => (x.kev ? [x.kev] : []))
  return {
    kev: kev.length > 0,
    kevDateAdded: earliest(kev.map((k) => k.dateAdded)),
    kevDueDate: earliest(kev.map((k) => k.dueDate)),
    epss: highest(known.map((x) => x.epss)),
    epssPercentile: highest(known.map((x) => x.percentile)),
    cves: known.slice(0, FINDING_INTEL_CVES),
    refreshedAt,
  }
}

/** Whether two findings' intelligence says the same (when it was refreshed aside). */
export function sameIntel(a: FindingIntel | null | undefined, b: FindingIntel | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null)
  const { refreshedAt: _a, ...restA } = a
  const { refreshedAt: _b, ...restB } = b
  return JSON.stringify(restA) === JSON.stringify(restB)
}
