// FIRST's daily EPSS scores in their published form (epss_scores-YYYY-MM-DD.csv.gz): gzip, a
// comment line "#model_version:v2025.03.14,score_date:2025-03-15T00:00:00+0000", the header
// "cve,epss,percentile", then one row per CVE (some 300,000). Read as a stream, row by row: the
// caller keeps the rows it needs and nothing else is held. A row that is not what the format says
// refuses the whole file, with its line.
import * as v from 'valibot'
import { CveIdSchema, DaySchema, UnitSchema } from '../vuln-intel.ts'
import { FeedError, limitBytes, textLines, ungzipped } from './feed-stream.ts'

export const EPSS_FEED = 'EPSS scores'

export const EPSS_LIMITS: { maxPackedBytes: number; maxBytes: number; maxRows: number; maxLineChars: number } = {
  /** The file is about 2 MB packed and 10 MB unpacked (2026). */
  maxPackedBytes: 64 * 1024 * 1024,
  /** Unpacked: a small file that unpacks to gigabytes is refused here. */
  maxBytes: 256 * 1024 * 1024,
  maxRows: 3_000_000,
  maxLineChars: 1_024,
} as const

const HEADER = 'cve,epss,percentile'

/** A score as the file writes it: a decimal (or exponent) between 0 and 1. */
const UnitText = v.pipe(v.string(), v.regex(/^\d(?:\.\d{1,12})?(?:[eE]-?\d{1,3})?$/, 'Expected a number'), v.transform(Number), UnitSchema)

const EpssRowSchema = v.strictTuple([CveIdSchema, UnitText, UnitText])

export interface EpssScore {
  cve: string
  epss: number
  percentile: number
}

export interface EpssEdition {
  modelVersion: string | null
  /** The day the scores are for (score_date), null when the file does not say. */
  scoreDate: string | null
  rows: number
}

const CommentSchema = v.object({
  model_version: v.optional(v.pipe(v.string(), v.maxLength(64))),
  score_date: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{2}-\d{2}/, 'Expected a date'),
      v.transform((s) => s.slice(0, 10)),
      DaySchema,
    ),
  ),
})

function parseComment(line: string): Pick<EpssEdition, 'modelVersion' | 'scoreDate'> {
  const pairs = line
    .slice(1)
    .split(',')
    .map((pair) => {
      const at = pair.indexOf(':')
      return at < 0 ? [pair.trim(), ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]
    })
  const parsed = v.safeParse(CommentSchema, Object.fromEntries(pairs))
  if (!parsed.success) throw new FeedError(EPSS_FEED, 'line 1', `the comment line: ${parsed.issues[0].message}`)
  return { modelVersion: parsed.output.model_version ?? null, scoreDate: parsed.output.score_date ?? null }
}

/**
 * Reads the scores from the file's bytes (packed or not), handing each row to `onScore`; answers
 * which edition it was and how many rows it held.
 */
export async function readEpssScores(
  source: ReadableStream<Uint8Array>,
  onScore: (score: EpssScore) => void,
  limits: typeof EPSS_LIMITS = EPSS_LIMITS,
): Promise<EpssEdition> {
  const packed = limitBytes(source, limits.maxPackedBytes, EPSS_FEED, 'the file')
  const unpacked = limitBytes(await ungzipped(packed), limits.maxBytes, EPSS_FEED, 'the unpacked file')
  let edition: Pick<EpssEdition, 'modelVersion' | 'scoreDate'> = { modelVersion: null, scoreDate: null }
  let line = 0
  let header = false
  let rows = 0
  for await (const text of textLines(unpacked, limits.maxLineChars, EPSS_FEED)) {
    line++
    if (!header) {
      if (line === 1 && text.startsWith('#')) {
        edition = parseComment(text)
        continue
      }
      if (text.trim() !== HEADER) throw new FeedError(EPSS_FEED, `line ${line}`, `expected the header "${HEADER}"`)
      header = true
      continue
    }
    if (text === '') continue
    const row = v.safeParse(EpssRowSchema, text.split(','))
    if (!row.success) throw new FeedError(EPSS_FEED, `line ${line}`, row.issues[0].message)
    if (++rows > limits.maxRows) throw new FeedError(EPSS_FEED, `line ${line}`, `more than ${limits.maxRows} rows`)
    const [cve, epss, percentile] = row.output
    onScore({ cve, epss, percentile })
  }
  if (!header) throw new FeedError(EPSS_FEED, 'the file', `no header "${HEADER}"`)
  return { ...edition, rows }
}
