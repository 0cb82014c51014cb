// CVSS vectors of finding templates: reading a pasted vector, the metrics a vector builder offers,
// and the score. Scores come from ae-cvss-calculator (FIRST's formulas and lookup tables); this
// module decides which vectors are accepted and says what is wrong with the others.
import cvssCalculator from 'ae-cvss-calculator'
import type { Severity } from './template-vocabulary.ts'

export const CVSS_VERSIONS = ['3.1', '4.0'] as const
export type CvssVersion = (typeof CVSS_VERSIONS)[number]

export type CvssSeverity = 'none' | 'low' | 'medium' | 'high' | 'critical'

export interface CvssMetricValue {
  key: string
  label: string
}

export interface CvssMetric {
  key: string
  name: string
  /** The specification's heading for the metric, e.g. "Vulnerable System Impact". */
  group: string
  values: readonly CvssMetricValue[]
}

export type CvssParseResult =
  | { ok: true; version: CvssVersion; vector: string; metrics: Record<string, string>; score: number; severity: CvssSeverity }
  | { ok: false; error: string }

/** Selected metric values by metric key, e.g. { AV: 'N', AC: 'L' }. */
export type CvssSelections = Readonly<Record<string, string | undefined>>

/** "Not Defined": allowed for every metric outside the base group, and left out of a normalised vector. */
const NOT_DEFINED = 'X'

interface MetricDefinition extends CvssMetric {
  base: boolean
}

type Calculator = InstanceType<typeof cvssCalculator.Cvss3P1> | InstanceType<typeof cvssCalculator.Cvss4P0>

const calculators: Record<CvssVersion, (vector: string) => Calculator> = {
  '3.1': (vector) => new cvssCalculator.Cvss3P1(vector),
  '4.0': (vector) => new cvssCalculator.Cvss4P0(vector),
}

/** Every metric of a version in the specification's vector-string order, read from the calculator. */
function definitionsOf(version: CvssVersion): readonly MetricDefinition[] {
  const categories =
    version === '4.0'
      ? new cvssCalculator.Cvss4P0().getVectorStringOrderProperties()
      : new cvssCalculator.Cvss3P1().getRegisteredComponents()
  return [...categories].flatMap(([category, components]) =>
    components.map((component) => ({
      key: component.shortName,
      name: component.name,
      group: component.subCategory ?? category.name,
      base: category.name === 'base',
      // Hidden values (4.0's SC:S, SI:S, SA:S) belong to the modified metrics only.
      values: component.values
        .filter((value) => !value.hide && value.shortName !== NOT_DEFINED)
        .map((value) => ({ key: value.shortName, label: value.name })),
    })),
  )
}

const definitions: Record<CvssVersion, readonly MetricDefinition[]> = { '3.1': definitionsOf('3.1'), '4.0': definitionsOf('4.0') }

function baseMetricsOf(version: CvssVersion): readonly CvssMetric[] {
  return definitions[version].filter((metric) => metric.base).map(({ key, name, group, values }) => ({ key, name, group, values }))
}

/** The base metrics of each version in order, with their values: one button group per metric. */
export const cvssBaseMetrics: Record<CvssVersion, readonly CvssMetric[]> = {
  '3.1': baseMetricsOf('3.1'),
  '4.0': baseMetricsOf('4.0'),
}

const prefixOf = (version: CvssVersion) => `CVSS:${version}`

/** The CVSS qualitative rating; 3.1 and 4.0 share the ranges. */
export function cvssSeverity(score: number): CvssSeverity {
  if (score >= 9) return 'critical'
  if (score >= 7) return 'high'
  if (score >= 4) return 'medium'
  if (score > 0) return 'low'
  return 'none'
}

/** The severity a CVSS score gives a finding (a score of 0 is informational). */
export function severityOfScore(score: number): Severity {
  const severity = cvssSeverity(score)
  return severity === 'none' ? 'info' : severity
}

const describeMetric = (metric: CvssMetric) => `${metric.key} (${metric.name})`

function listOf(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

const allowedValues = (metric: MetricDefinition) =>
  metric.base ? metric.values.map((value) => value.key) : [...metric.values.map((value) => value.key), NOT_DEFINED]

const failure = (error: string): CvssParseResult => ({ ok: false, error })

function versionOf(prefix: string): { version: CvssVersion } | { error: string } {
  const named = /^CVSS:(\d+\.\d+)$/.exec(prefix)?.[1]
  if (named === undefined) return { error: `A CVSS vector starts with ${listOf(CVSS_VERSIONS.map((known) => `${prefixOf(known)}/`))}` }
  const version = CVSS_VERSIONS.find((known) => known === named)
  return version ? { version } : { error: `CVSS ${named} is not supported: use a CVSS ${listOf(CVSS_VERSIONS)} vector` }
}

/** The defined metrics in vector-string order, as a record and as a vector string. */
function normalise(version: CvssVersion, metrics: ReadonlyMap<string, string>) {
  const ordered = definitions[version].flatMap((metric) => {
    const value = metrics.get(metric.key)
    return value === undefined || value === NOT_DEFINED ? [] : [[metric.key, value] as const]
  })
  return {
    metrics: Object.fromEntries(ordered),
    vector: [prefixOf(version), ...ordered.map(([key, value]) => `${key}:${value}`)].join('/'),
  }
}

const scoreOf = (version: CvssVersion, vector: string) => calculators[version](vector).calculateScores().overall

/**
 * Reads a pasted vector. The score takes every metric the vector carries: 3.1's environmental
 * score, else its temporal score, else its base score; 4.0's CVSS-B, -BT, -BE or -BTE score.
 */
export function parseCvssVector(text: string): CvssParseResult {
  const trimmed = text.trim()
  if (trimmed === '') return failure('Enter a CVSS vector, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')
  const [prefix = '', ...parts] = trimmed.split('/')
  const detected = versionOf(prefix)
  if ('error' in detected) return failure(detected.error)
  const { version } = detected
  const known = definitions[version]
  const metrics = new Map<string, string>()
  for (const part of parts) {
    if (part === '') return failure('The vector has an empty metric: remove the extra "/"')
    const separator = part.indexOf(':')
    if (separator < 1) return failure(`"${part}" is not a metric: write each metric as KEY:VALUE, such as AV:N`)
    const key = part.slice(0, separator)
    const value = part.slice(separator + 1)
    const metric = known.find((candidate) => candidate.key === key)
    if (!metric) return failure(`CVSS ${version} has no metric "${key}"`)
    if (metrics.has(key)) return failure(`Metric ${describeMetric(metric)} appears more than once`)
    const allowed = allowedValues(metric)
    if (!allowed.includes(value)) return failure(`"${value}" is not a value of ${describeMetric(metric)}: use ${listOf(allowed)}`)
    metrics.set(key, value)
  }
  const missing = known.filter((metric) => metric.base && !metrics.has(metric.key))
  if (missing.length > 0) return failure(`Missing base metrics: ${missing.map(describeMetric).join(', ')}`)
  const normalised = normalise(version, metrics)
  const score = scoreOf(version, normalised.vector)
  return { ok: true, version, ...normalised, score, severity: cvssSeverity(score) }
}

/**
 * The vector of a builder's selections, in vector-string order; unselected metrics are left out, so
 * the vector is complete once every base metric is chosen. Selections that are no metric or value
 * of the version are a programming error.
 */
export function buildVector(version: CvssVersion, selections: CvssSelections): string {
  const metrics = new Map<string, string>()
  for (const [key, value] of Object.entries(selections)) {
    if (value === undefined) continue
    const metric = definitions[version].find((candidate) => candidate.key === key)
    if (!metric || !allowedValues(metric).includes(value)) throw new RangeError(`CVSS ${version} has no value ${key}:${value}`)
    metrics.set(key, value)
  }
  return normalise(version, metrics).vector
}

/** The score of a builder's selections: null until every base metric is chosen. */
export function selectionScore(version: CvssVersion, selections: CvssSelections): number | null {
  const complete = cvssBaseMetrics[version].every((metric) => selections[metric.key] !== undefined)
  return complete ? scoreOf(version, buildVector(version, selections)) : null
}
