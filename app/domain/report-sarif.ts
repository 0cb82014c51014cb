// DAST and network findings as SARIF 2.1.0, the format code-scanning and vulnerability tools
// import: one run whose driver is Bulwark, a rule per template (or per title when a finding has
// none), and a result per finding with its level, its location (a URL for DAST, host:port for
// network) and its fingerprint, so a re-import recognises the same issue.
import type { Finding, FindingStatus } from './findings.ts'
import { markdownToText } from './markdown.ts'
import { cleanText, encodeWhole, exportableFinding, fileNamePart, isoDate, jsonArrayWriter, type FindingsEncoder } from './report-export.ts'
import type { ServiceId } from './services.ts'
import { severityLabels, type Severity } from './template-vocabulary.ts'

export const SARIF_VERSION = '2.1.0'
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json'

export type SarifLevel = 'error' | 'warning' | 'note'

export const sarifLevels: Record<Severity, SarifLevel> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' }

/** Without a CVSS score, the middle of the severity's CVSS band. */
const bandScores: Record<Severity, number> = { critical: 9.5, high: 8, medium: 5.5, low: 2, info: 0 }

/** Findings an analyst or a client set aside: SARIF readers hide them as suppressed. */
const SUPPRESSED: Partial<Record<FindingStatus, string>> = {
  false_positive: 'False positive',
  risk_accepted: 'Risk accepted',
  duplicate: 'Duplicate',
  out_of_scope: 'Out of scope',
}

interface SarifMessage {
  text: string
}

export interface SarifRule {
  id: string
  name: string
  shortDescription: SarifMessage
  fullDescription?: SarifMessage
  help?: SarifMessage
  helpUri?: string
  defaultConfiguration: { level: SarifLevel }
  properties: { 'security-severity': string; tags: string[]; precision: 'high' }
}

export interface SarifLocation {
  physicalLocation?: { artifactLocation: { uri: string } }
  logicalLocations?: { name: string; fullyQualifiedName: string; kind: string }[]
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: SarifLevel
  message: SarifMessage
  locations: SarifLocation[]
  partialFingerprints: Record<string, string>
  suppressions?: { kind: 'external'; status: 'accepted'; justification: string }[]
  properties: Record<string, unknown>
}

export interface SarifRun {
  // Results come first: a run is written a page at a time, and its rules are known only at the end.
  results: SarifResult[]
  tool: { driver: { name: string; informationUri?: string; semanticVersion?: string; rules: SarifRule[] } }
  automationDetails?: { id: string }
}

export interface SarifLog {
  $schema: string
  version: typeof SARIF_VERSION
  runs: SarifRun[]
}

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** The rule a finding belongs to: its template, or its title when it has none. */
export const sarifRuleId = (finding: Pick<Finding, 'templateSlug' | 'title'>) =>
  finding.templateSlug?.trim() || `finding/${fileNamePart(finding.title)}`

/** Where a finding was seen: a URL for DAST, host:port for network. */
export function sarifLocation(finding: Finding): SarifLocation {
  const { location } = finding
  if (finding.service === 'dast') {
    const url = location.url ?? finding.asset
    if (isHttpUrl(url)) return { physicalLocation: { artifactLocation: { uri: url } } }
  }
  const hostPort = location.host ? (location.port ? `${location.host}:${location.port}` : location.host) : finding.asset
  const protocol = location.protocol ? `/${location.protocol}` : ''
  return { logicalLocations: [{ name: hostPort, fullyQualifiedName: `${hostPort}${protocol}`, kind: 'resource' }] }
}

const score = (finding: Finding) => finding.cvss?.score ?? bandScores[finding.severity]

function ruleFor(finding: Finding, worst: number): SarifRule {
  // The text in full and as written: a remediation is followed to the letter (`ping -c 1 <host>`).
  const help = markdownToText(cleanText(finding.remediation))
  const full = markdownToText(cleanText(finding.description))
  const helpUri = finding.references.find(isHttpUrl)
  return {
    id: sarifRuleId(finding),
    name: finding.title,
    shortDescription: { text: finding.title },
    ...(full ? { fullDescription: { text: full } } : {}),
    ...(help ? { help: { text: help } } : {}),
    ...(helpUri ? { helpUri } : {}),
    defaultConfiguration: { level: sarifLevels[finding.severity] },
    // GitHub code scanning reads this string (0.0-10.0) as the rule's CVSS-like severity.
    properties: { 'security-severity': worst.toFixed(1), tags: ['security', ...finding.cwe], precision: 'high' },
  }
}

export interface SarifInput {
  service: ServiceId
  company: string
  exportedAt: number
  findings: readonly Finding[]
  /** The product's address, for the tool's informationUri. */
  informationUri?: string
}

/**
 * The SARIF log written a page at a time. A rule per id, numbered as first met and described by
 * its first finding; its severity is the worst of its findings, so the rules are written last.
 */
export function findingsSarifEncoder(input: Omit<SarifInput, 'findings'>): FindingsEncoder {
  const rules = new Map<string, { index: number; rule: SarifRule; worst: number }>()
  const log = (results: unknown): unknown => ({
    $schema: SARIF_SCHEMA_URI,
    version: SARIF_VERSION,
    runs: [
      {
        results,
        tool: {
          driver: {
            name: 'Bulwark',
            ...(input.informationUri ? { informationUri: input.informationUri } : {}),
            rules: [...rules.values()].map(({ rule, worst }) => ({
              ...rule,
              properties: { ...rule.properties, 'security-severity': worst.toFixed(1) },
            })),
          },
        },
        automationDetails: { id: `${fileNamePart(input.company)}/${input.service}/${new Date(input.exportedAt).toISOString()}` },
      },
    ],
  })
  const writer = jsonArrayWriter(log)

  const resultOf = (finding: Finding): SarifResult => {
    const f = exportableFinding(finding)
    const id = sarifRuleId(f)
    let entry = rules.get(id)
    if (!entry) rules.set(id, (entry = { index: rules.size, rule: ruleFor(f, 0), worst: 0 }))
    entry.worst = Math.max(entry.worst, score(f))
    const suppressed = SUPPRESSED[f.status]
    return {
      ruleId: id,
      ruleIndex: entry.index,
      level: sarifLevels[f.severity],
      message: { text: `${f.title} (${severityLabels[f.severity]}) on ${f.asset}` },
      locations: [sarifLocation(f)],
      partialFingerprints: { 'bulwarkFingerprint/v1': f.fingerprint },
      ...(suppressed ? { suppressions: [{ kind: 'external' as const, status: 'accepted' as const, justification: suppressed }] } : {}),
      properties: {
        findingId: f.id,
        severity: f.severity,
        status: f.status,
        ...(f.cvss ? { cvssScore: f.cvss.score, cvssVector: f.cvss.vector } : {}),
        ...(f.location.method ? { method: f.location.method } : {}),
        ...(f.location.parameter ? { parameter: f.location.parameter } : {}),
        firstSeen: isoDate(f.firstSeenAt),
        lastSeen: isoDate(f.lastSeenAt),
        tags: [...f.tags],
      },
    }
  }

  return {
    head: writer.head,
    page: (findings) => findings.map((f) => writer.item(resultOf(f))).join(''),
    tail: writer.tail,
  }
}

export const findingsSarifText = (input: SarifInput) => encodeWhole(findingsSarifEncoder(input), input.findings)

/** The log as an object (what a reader gets back from the text). */
export const findingsSarif = (input: SarifInput): SarifLog => JSON.parse(findingsSarifText(input)) as SarifLog
