// Editing a CVSS vector as text and through the builder. The field's value is always the vector
// string: the builder reads its choices from it and writes them back into it.
import * as v from 'valibot'
import { buildVector, CVSS_VERSIONS, cvssBaseMetrics, parseCvssVector, type CvssVersion } from '#domain/cvss.ts'
import { templateFieldSchemas, type TemplateCvss } from '#domain/finding-template.ts'

/** The version a vector names, also while it is still incomplete ("CVSS:4.0/AV:N"). */
export function versionOfVector(text: string): CvssVersion | null {
  const prefix = text.trim().split('/', 1)[0]
  return CVSS_VERSIONS.find((version) => prefix === `CVSS:${version}`) ?? null
}

const isBaseValue = (version: CvssVersion, key: string, value: string | undefined) =>
  cvssBaseMetrics[version].some((metric) => metric.key === key && metric.values.some((choice) => choice.key === value))

/**
 * The builder's choices in a vector of `version`: every metric of a valid vector; of an incomplete
 * or invalid one, the base metrics whose values are right, so that the builder can complete it.
 */
export function selectionsOf(text: string, version: CvssVersion): Record<string, string> {
  if (versionOfVector(text) !== version) return {}
  const parsed = parseCvssVector(text)
  if (parsed.ok) return parsed.metrics
  const selections: Record<string, string> = {}
  for (const part of text.trim().split('/').slice(1)) {
    const separator = part.indexOf(':')
    const key = part.slice(0, separator)
    const value = part.slice(separator + 1)
    if (separator > 0 && isBaseValue(version, key, value)) selections[key] = value
  }
  return selections
}

/** The vector after choosing `value` for the metric `key` in the builder; the other choices stay. */
export function chooseMetric(text: string, version: CvssVersion, key: string, value: string): string {
  return buildVector(version, { ...selectionsOf(text, version), [key]: value })
}

/** 3.1's metrics from 4.0's: impacts on the vulnerable system become C, I and A; any impact beyond it is a changed scope. */
function toV31(m: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['AV', 'AC', 'PR'] as const) if (m[key]) out[key] = m[key]
  if (m.UI) out.UI = m.UI === 'N' ? 'N' : 'R'
  if (m.VC) out.C = m.VC
  if (m.VI) out.I = m.VI
  if (m.VA) out.A = m.VA
  const subsequent = [m.SC, m.SI, m.SA]
  if (subsequent.every((value) => value !== undefined)) out.S = subsequent.some((value) => value !== 'N') ? 'C' : 'U'
  return out
}

/** 4.0's metrics from 3.1's: C, I and A are the vulnerable system's; a changed scope carries them to the subsequent systems. */
function toV40(m: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of ['AV', 'AC', 'PR'] as const) if (m[key]) out[key] = m[key]
  if (m.UI) out.UI = m.UI === 'N' ? 'N' : 'P'
  if (m.C) out.VC = m.C
  if (m.I) out.VI = m.I
  if (m.A) out.VA = m.A
  if (m.S === 'U') Object.assign(out, { SC: 'N', SI: 'N', SA: 'N' })
  if (m.S === 'C') {
    if (m.C) out.SC = m.C
    if (m.I) out.SI = m.I
    if (m.A) out.SA = m.A
  }
  return out
}

/**
 * The vector in another version: every base metric that has a counterpart carries over (attack
 * vector, complexity, privileges, interaction, the impacts and scope); what has none (4.0's attack
 * requirements) is to be chosen. Text that names no version is left as it is.
 */
export function convertVector(text: string, to: CvssVersion): string {
  const from = versionOfVector(text)
  if (from === null || from === to) return text
  const selections = selectionsOf(text, from)
  const mapped = to === '3.1' ? toV31(selections) : toV40(selections)
  const carried = Object.entries(mapped).filter(([key, value]) => isBaseValue(to, key, value))
  return buildVector(to, Object.fromEntries(carried))
}

/** A vector by meaning: the normalised vector when valid, nothing when blank, else the text itself. */
function canonicalVector(text: string): string {
  if (text.trim() === '') return ''
  const parsed = parseCvssVector(text)
  return parsed.ok ? parsed.vector : text
}

/**
 * Whether two field values are the same vector. The document holds the normalised vector, so a
 * pasted vector in another metric order, or with "Not Defined" metrics, is already saved.
 */
export const sameVector = (a: string, b: string) => canonicalVector(a) === canonicalVector(b)

/** Why the field's text cannot be saved (the parser's words), or null: a blank field clears the vector. */
export function cvssProblem(text: string): string | null {
  const result = v.safeParse(templateFieldSchemas.cvss, text)
  return result.success ? null : result.issues[0].message
}

/** The record a valid field saves; null for a blank field. */
export const cvssRecord = (text: string): TemplateCvss | null => v.parse(templateFieldSchemas.cvss, text)
