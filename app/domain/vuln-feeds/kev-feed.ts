// CISA's Known Exploited Vulnerabilities catalogue in its published JSON form
// (known_exploited_vulnerabilities.json, schema version 1.x): catalogVersion, dateReleased, count
// and vulnerabilities[] with cveID, dateAdded, dueDate, knownRansomwareCampaignUse and text
// fields. Validated whole: a catalogue that does not say what it should is refused, never read in
// part (a CVE silently missing would read as "not exploited").
import * as v from 'valibot'
import { CveIdSchema, DaySchema, type KevEntry } from '../vuln-intel.ts'
import { FeedError, limitBytes, streamText } from './feed-stream.ts'

export const KEV_FEED = 'KEV catalogue'

export const KEV_LIMITS = {
  /** The catalogue is about 1.5 MB with some 1,500 entries (2026). */
  maxBytes: 32 * 1024 * 1024,
  maxEntries: 100_000,
  maxTextChars: 4_096,
} as const

const text = v.pipe(v.string(), v.maxLength(KEV_LIMITS.maxTextChars))

const KevVulnerabilitySchema = v.object({
  cveID: CveIdSchema,
  vendorProject: v.optional(text),
  product: v.optional(text),
  vulnerabilityName: v.optional(text),
  dateAdded: DaySchema,
  dueDate: DaySchema,
  knownRansomwareCampaignUse: v.picklist(['Known', 'Unknown']),
})

const KevCatalogueSchema = v.pipe(
  v.object({
    catalogVersion: v.pipe(v.string(), v.nonEmpty(), v.maxLength(64)),
    dateReleased: v.pipe(
      v.string(),
      v.maxLength(64),
      v.check((s) => !Number.isNaN(Date.parse(s)), 'Expected a date and time'),
    ),
    count: v.pipe(v.number(), v.integer(), v.minValue(0)),
    vulnerabilities: v.pipe(v.array(v.unknown()), v.maxLength(KEV_LIMITS.maxEntries)),
  }),
  v.check((c) => c.count === c.vulnerabilities.length, 'count is not the number of vulnerabilities listed'),
)

export interface KevCatalogue {
  catalogVersion: string
  dateReleased: string
  /** By CVE id. */
  entries: Map<string, KevEntry>
}

const issueAt = (issues: readonly [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]) => {
  const [issue] = issues
  const path = issue.path?.map((p) => p.key).join('.')
  return path ? `${path}: ${issue.message}` : issue.message
}

/** The catalogue a JSON text holds; refused with what is wrong and where. */
export function parseKevCatalogue(json: string): KevCatalogue {
  let data: unknown
  try {
    data = JSON.parse(json)
  } catch {
    throw new FeedError(KEV_FEED, 'the file', 'not JSON')
  }
  const catalogue = v.safeParse(KevCatalogueSchema, data)
  if (!catalogue.success) throw new FeedError(KEV_FEED, 'the catalogue', issueAt(catalogue.issues))
  const entries = new Map<string, KevEntry>()
  catalogue.output.vulnerabilities.forEach((item, index) => {
    const entry = v.safeParse(KevVulnerabilitySchema, item)
    if (!entry.success) throw new FeedError(KEV_FEED, `vulnerability ${index + 1}`, issueAt(entry.issues))
    const { cveID, dateAdded, dueDate, knownRansomwareCampaignUse } = entry.output
    // Listed twice: the earlier listing stands.
    const known = entries.get(cveID)
    if (!known || dateAdded < known.dateAdded)
      entries.set(cveID, { dateAdded, dueDate, ransomware: knownRansomwareCampaignUse === 'Known' })
  })
  return { catalogVersion: catalogue.output.catalogVersion, dateReleased: catalogue.output.dateReleased, entries }
}

/** The catalogue read from a stream of its bytes, refused past KEV_LIMITS.maxBytes. */
export async function readKevCatalogue(source: ReadableStream<Uint8Array>): Promise<KevCatalogue> {
  return parseKevCatalogue(await streamText(limitBytes(source, KEV_LIMITS.maxBytes, KEV_FEED, 'the file'), KEV_FEED))
}
