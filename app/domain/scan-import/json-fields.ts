// Reading fields out of scanner JSON whose types cannot be trusted: a wrong type reads as absent,
// every string is bounded, and what a parser keeps raw is copied with the same bounds.
import { PARSE_LIMITS, bounded, type ImportNote } from './parsed-scan.ts'

export type JsonRecord = Record<string, unknown>

export const isRecord = (value: unknown): value is JsonRecord => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A record, or an empty one when the value is not an object. */
export const record = (value: unknown): JsonRecord => (isRecord(value) ? value : {})

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** A bounded, trimmed string from a string or a number; undefined when empty or of another type. */
export function text(value: unknown, max: number = PARSE_LIMITS.maxFieldChars): string | undefined {
  const raw = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined
  const trimmed = raw?.trim()
  return trimmed ? bounded(trimmed, max) : undefined
}

/** A finite number from a number or a numeric string. */
export function num(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return Number.isFinite(n) ? n : undefined
}

/** An integer in [min, max] or undefined. */
export function int(value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const n = num(value)
  return n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : undefined
}

/** Strings from a string, a comma-separated string or an array of them, bounded, without duplicates. */
export function texts(value: unknown, limit = 100): string[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(',')
      : value === undefined || value === null
        ? []
        : [value]
  const out = new Set<string>()
  for (const item of items) {
    const t = text(item)
    if (t) out.add(t)
    if (out.size >= limit) break
  }
  return [...out]
}

/** Epoch ms from an ISO date, or from seconds or milliseconds since the epoch; null otherwise. */
export function epochMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e11 ? value * 1000 : value
  if (typeof value !== 'string' || !value.trim()) return null
  const t = Date.parse(value.trim())
  return Number.isFinite(t) ? t : null
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

/** Text from a scanner's HTML fragment: paragraphs kept as blank lines, tags dropped, entities decoded. */
export function stripHtml(html: string | undefined): string | undefined {
  if (!html) return undefined
  const plain = html
    .replace(/<\s*(br|\/p|\/li|\/div)\s*\/?>/gi, '\n')
    .replace(/<\s*li\s*>/gi, '- ')
    .replace(/<[^>]{0,1000}>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return safeChar(parseInt(name.slice(2), 16)) ?? all
      if (name.startsWith('#') && name !== '#39') return safeChar(parseInt(name.slice(1), 10)) ?? all
      return ENTITIES[name.toLowerCase()] ?? all
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return plain || undefined
}

const safeChar = (code: number) => (Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined)

/** Lines of references (URLs one per line or in HTML paragraphs), without duplicates. */
export function referenceLines(value: string | undefined, limit = 50): string[] {
  const plain = stripHtml(value)
  if (!plain) return []
  return [...new Set(plain.split(/\s*\n\s*/).filter(Boolean))].slice(0, limit)
}

const RAW_ARRAY_ITEMS = 200
const RAW_KEYS = 200
const RAW_DEPTH = 12

/** A bounded copy of the fields a parser did not map (strings cut, long arrays and deep objects trimmed). */
export function boundedRaw(value: JsonRecord, omit: readonly string[] = []): JsonRecord {
  const skip = new Set(omit)
  const out: JsonRecord = {}
  let keys = 0
  for (const [key, field] of Object.entries(value)) {
    if (skip.has(key) || field === undefined) continue
    if (++keys > RAW_KEYS) break
    out[bounded(key, 200)] = copy(field, 1)
  }
  return out
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return bounded(value)
  if (value === null || typeof value !== 'object') return value
  if (depth > RAW_DEPTH) return '…'
  if (Array.isArray(value)) return value.slice(0, RAW_ARRAY_ITEMS).map((item) => copy(item, depth + 1))
  const out: JsonRecord = {}
  let keys = 0
  for (const [key, field] of Object.entries(value)) {
    if (++keys > RAW_KEYS) break
    out[bounded(key, 200)] = copy(field, depth + 1)
  }
  return out
}

/** The import report's notes: the first PARSE_LIMITS.notes kept, the rest counted. */
export class Notes {
  readonly kept: ImportNote[] = []
  dropped = 0
  skipped = 0
  warnings = 0

  skip(where: string, message: string) {
    this.skipped++
    this.add({ level: 'skipped', where, message })
  }

  warn(where: string, message: string) {
    this.warnings++
    this.add({ level: 'warning', where, message })
  }

  private add(note: ImportNote) {
    if (this.kept.length < PARSE_LIMITS.notes) this.kept.push({ ...note, message: bounded(note.message, 500) })
    else this.dropped++
  }
}

/** Adds one to a named count. */
export const tally = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by
}

/** A guard on how many findings or assets one file may give. */
export function underLimit(count: number, limit: number, notes: Notes, where: string, what: string): boolean {
  if (count < limit) return true
  if (count === limit) notes.warn(where, `more than ${limit} ${what}: the rest are not read`)
  return false
}

/** CWE ids as "CWE-79" from numbers, "79", "cwe-79" or lists of them; 0 and negatives are "none". */
export function cweIds(value: unknown): string[] {
  const out = new Set<string>()
  for (const item of Array.isArray(value) ? value : [value]) {
    for (const part of typeof item === 'string' ? item.split(',') : [item]) {
      const match = /^\s*(?:cwe-)?(\d{1,6})\s*$/i.exec(String(part ?? ''))
      if (match && Number(match[1]) > 0) out.add(`CWE-${Number(match[1])}`)
    }
  }
  return [...out].slice(0, 20)
}

/** CVE ids in upper case from a string or a list (at most `limit`); anything else is left out. */
export function cveIds(value: unknown, limit = 50): string[] {
  const out = new Set<string>()
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item !== 'string') continue
    for (const match of item.matchAll(/CVE-\d{4}-\d{4,7}/gi)) out.add(match[0].toUpperCase())
  }
  return [...out].slice(0, limit)
}
