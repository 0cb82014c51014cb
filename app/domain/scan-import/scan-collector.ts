// What a parser gathers while it reads: findings, assets and notes up to PARSE_LIMITS, with what
// went over counted rather than kept, so a hostile or huge file gives a bounded result and says so.
import type { Severity } from '../template-vocabulary.ts'
import { PARSE_LIMITS, type ImportNote, type ParsedAsset, type ParsedFinding } from './parsed-scan.ts'

export class ScanCollector {
  readonly findings: ParsedFinding[] = []
  readonly assets: ParsedAsset[] = []
  readonly notes: ImportNote[] = []
  private findingsOver = 0
  private assetsOver = 0
  private notesOver = 0

  addFinding(finding: ParsedFinding): void {
    if (this.findings.length < PARSE_LIMITS.findings) this.findings.push(finding)
    else this.findingsOver++
  }

  addAsset(asset: ParsedAsset): void {
    if (this.assets.length < PARSE_LIMITS.assets) this.assets.push(asset)
    else this.assetsOver++
  }

  note(level: ImportNote['level'], where: string, message: string): void {
    if (this.notes.length < PARSE_LIMITS.notes) this.notes.push({ level, where, message })
    else this.notesOver++
  }

  /** The notes, with a last one for each limit the file went over. */
  finalNotes(): ImportNote[] {
    const notes = [...this.notes]
    if (this.findingsOver > 0) notes.push(overLimit(this.findingsOver, 'findings', PARSE_LIMITS.findings))
    if (this.assetsOver > 0) notes.push(overLimit(this.assetsOver, 'assets', PARSE_LIMITS.assets))
    if (this.notesOver > 0) notes.push({ level: 'warning', where: 'file', message: `${this.notesOver} more notes were not kept` })
    return notes
  }
}

const overLimit = (count: number, what: string, limit: number): ImportNote => ({
  level: 'skipped',
  where: 'file',
  message: `${count} ${what} over the limit of ${limit} were not imported`,
})

/** The CVSS qualitative rating of a score (3.x and 4.0 share the ranges; 0 is informational). */
export function severityFromScore(score: number): Severity {
  if (score >= 9) return 'critical'
  if (score >= 7) return 'high'
  if (score >= 4) return 'medium'
  if (score > 0) return 'low'
  return 'info'
}

/** Epoch ms from a Unix time in seconds, or null. */
export function fromUnixSeconds(value: string | undefined): number | null {
  const seconds = Number(value)
  return value && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null
}

const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2}|\b(UTC|GMT))$/i

/** Epoch ms from a date the file writes as text (ISO 8601 or "Tue Mar  5 10:00:00 2024"), or null. Without a zone, UTC. */
export function fromDateText(value: string | undefined): number | null {
  const text = value?.trim()
  if (!text) return null
  const zoned = HAS_ZONE.test(text) ? text : /^\d{4}-\d{2}-\d{2}T/.test(text) ? `${text}Z` : `${text} UTC`
  const ms = Date.parse(zoned)
  return Number.isFinite(ms) ? ms : null
}

/**
 * Epoch ms from "2021-01-08 17:28:00+0100" or "2017-11-14 02:57:24 +0000" (a space before the time,
 * an offset without a colon: ScoutSuite and Arachni), which not every browser's Date.parse reads.
 */
export function fromOffsetDateText(value: unknown): number | null {
  const m = typeof value === 'string' && /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)\s*(Z|[+-]\d\d:?\d\d)?$/.exec(value.trim())
  if (!m) return null
  const zone = !m[3] || m[3] === 'Z' ? 'Z' : `${m[3].slice(0, 3)}:${m[3].slice(-2)}`
  const ms = Date.parse(`${m[1]}T${m[2]}${zone}`)
  return Number.isFinite(ms) ? ms : null
}

/** Values in first-seen order without repeats. */
export const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)]
