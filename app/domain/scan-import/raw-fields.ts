// The raw fields of a finding or asset travel as one JSON object of at most PARSE_LIMITS.maxFieldChars
// (the import contract refuses more): fitRaw cuts the longest values until the whole object fits,
// so a plugin with an unusually long field loses the tail of that field, never the finding.
import { PARSE_LIMITS, bounded } from './parsed-scan.ts'

const size = (value: unknown) => JSON.stringify(value)?.length ?? 0

/** The object itself when it fits; otherwise a copy whose longest values are cut (strings) or shortened (lists) until it does. */
export function fitRaw(raw: Record<string, unknown>, max: number = PARSE_LIMITS.maxFieldChars): Record<string, unknown> {
  if (size(raw) <= max) return raw
  const out: Record<string, unknown> = { ...raw }
  for (let round = 0; round < 64 && size(out) > max; round++) {
    const [key, value] = Object.entries(out).reduce((a, b) => (size(b[1]) > size(a[1]) ? b : a))
    const over = size(out) - max
    const length = size(value)
    if (typeof value === 'string' && length > over + 16) out[key] = bounded(value, Math.max(1, value.length - over - 16))
    else if (Array.isArray(value) && value.length > 1) out[key] = value.slice(0, Math.ceil(value.length / 2))
    else out[key] = '…'
  }
  return out
}

/**
 * What a repeat of a finding the file already gave says beyond the first: kept under `field` of the
 * first one's raw fields (ten at most, 1,024 characters each, none equal to its evidence), which
 * still fit.
 */
export function keepRepeatText(
  finding: { raw: Record<string, unknown>; evidence?: string },
  field: string,
  text: string | undefined,
): void {
  const more = (finding.raw[field] ??= []) as string[]
  if (text && text !== finding.evidence && more.length < 10) more.push(bounded(text, 1_024))
  finding.raw = fitRaw(finding.raw)
}
