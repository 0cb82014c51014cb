// Prowler's results (v3 to v5): the OCSF JSON array of detection findings and the semicolon-
// separated CSV. A FAIL is a finding (one per resource); PASS and MANUAL results are only counted,
// into the cloud figures of a scan: checks run, passed, failed and manual, by cloud service, by
// account and region, and per compliance framework (a framework's total counts its PASS and FAIL).
import type { ScanStatsOf } from '../scans.ts'
import type { Severity } from '../template-vocabulary.ts'
import { boundedRaw, epochMs, isRecord, list, Notes, record, text, texts, underLimit, type JsonRecord } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import { csvRows } from './csv-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedFinding,
  type ParsedScan,
  type ScanFormat,
  type ScanParser,
} from './parsed-scan.ts'

const OCSF_LABEL = 'Prowler OCSF JSON'
const CSV_LABEL = 'Prowler CSV'

const SEVERITY: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  informational: 'info',
  info: 'info',
}

/** One Prowler result, as both formats give it. */
interface ProwlerResult {
  where: string
  status: string
  severity: string
  checkId: string
  title?: string
  provider: string
  account: string
  region: string
  cloudService: string
  resource: string
  description?: string
  remediation?: string
  references: string[]
  evidence?: string
  tags: string[]
  frameworks: string[]
  time: number | null
  version?: string
  raw: JsonRecord
}

/** Counts results and turns FAILs into findings, for either format. */
class ProwlerScan {
  readonly notes = new Notes()
  readonly findings: ParsedFinding[] = []
  private readonly accounts = new Set<string>()
  private readonly regions = new Set<string>()
  private readonly checks = new Set<string>()
  private readonly byService = new Map<string, { passed: number; failed: number }>()
  private readonly byAccountRegion = new Map<string, { account: string; region: string; failed: number }>()
  private readonly frameworks = new Map<string, { passed: number; total: number }>()
  private counts = { passed: 0, failed: 0, manual: 0, muted: 0 }
  private results = 0
  private first: number | null = null
  private last: number | null = null
  version = ''
  private readonly format: ScanFormat

  constructor(format: ScanFormat) {
    this.format = format
  }

  add(result: ProwlerResult) {
    this.results++
    const status = result.status.toUpperCase()
    if (status !== 'PASS' && status !== 'FAIL' && status !== 'MANUAL') {
      this.notes.skip(result.where, `unknown status ${JSON.stringify(result.status)}`)
      return
    }
    if (!result.checkId) {
      this.notes.skip(result.where, 'the result has no check id')
      return
    }
    if (result.version && !this.version) this.version = result.version
    if (result.time !== null) {
      this.first = this.first === null ? result.time : Math.min(this.first, result.time)
      this.last = this.last === null ? result.time : Math.max(this.last, result.time)
    }
    this.checks.add(result.checkId)
    if (result.account) this.accounts.add(result.account)
    if (result.region) this.regions.add(result.region)
    if (status === 'MANUAL') {
      this.counts.manual++
      return
    }
    const failed = status === 'FAIL'
    const service = this.byService.get(result.cloudService) ?? { passed: 0, failed: 0 }
    this.byService.set(result.cloudService, service)
    const key = `${result.account}\u0000${result.region}`
    const place = this.byAccountRegion.get(key) ?? { account: result.account, region: result.region, failed: 0 }
    this.byAccountRegion.set(key, place)
    for (const name of result.frameworks) {
      const framework = this.frameworks.get(name) ?? { passed: 0, total: 0 }
      framework.total++
      if (!failed) framework.passed++
      this.frameworks.set(name, framework)
    }
    if (!failed) {
      this.counts.passed++
      service.passed++
      return
    }
    this.counts.failed++
    service.failed++
    place.failed++
    const severity = SEVERITY[result.severity.toLowerCase()]
    if (!severity) this.notes.warn(result.where, `check ${result.checkId}: severity ${JSON.stringify(result.severity)} read as info`)
    if (!underLimit(this.findings.length, PARSE_LIMITS.findings, this.notes, result.where, 'findings')) return
    this.findings.push({
      ruleId: result.checkId,
      title: result.title ?? result.checkId,
      severity: severity ?? 'info',
      target: {
        kind: 'cloud',
        provider: result.provider,
        account: result.account,
        region: result.region,
        cloudService: result.cloudService,
        resource: result.resource,
      },
      description: result.description,
      remediation: result.remediation,
      references: result.references,
      evidence: result.evidence,
      tags: result.tags,
      raw: result.raw,
    })
  }

  result(): ParsedScan {
    const stats: ScanStatsOf<'cloud'> = {
      service: 'cloud',
      accounts: this.accounts.size,
      regions: this.regions.size,
      checksRun: this.counts.passed + this.counts.failed + this.counts.manual,
      passed: this.counts.passed,
      failed: this.counts.failed,
      manual: this.counts.manual,
      byCloudService: [...this.byService]
        .map(([name, counts]) => ({ name, ...counts }))
        .sort((a, b) => b.failed - a.failed || a.name.localeCompare(b.name)),
      byAccountRegion: [...this.byAccountRegion.values()].sort(
        (a, b) => b.failed - a.failed || a.account.localeCompare(b.account) || a.region.localeCompare(b.region),
      ),
      frameworks: [...this.frameworks].map(([name, counts]) => ({ name, ...counts })).sort((a, b) => a.name.localeCompare(b.name)),
    }
    return {
      format: this.format,
      tool: { name: 'Prowler', version: this.version },
      startedAt: this.first,
      finishedAt: this.last,
      targets: [...this.accounts],
      findings: this.findings,
      assets: [],
      statistics: {
        results: this.results,
        distinctChecks: this.checks.size,
        ...this.counts,
        findings: this.findings.length,
        skipped: this.notes.skipped,
        notesNotKept: this.notes.dropped,
      },
      serviceStats: stats,
      notes: this.notes.kept,
    }
  }
}

const joinText = (...parts: (string | undefined)[]) => {
  const joined = parts.filter(Boolean).join('\n\n')
  return joined ? bounded(joined) : undefined
}

/** The check's service from its id ("s3_bucket_public_access" → "s3") when the file does not say. */
const serviceOfCheck = (checkId: string) => checkId.split('_')[0] ?? checkId

function ocsfResults(item: JsonRecord, where: string): ProwlerResult[] {
  const metadata = record(item.metadata)
  const info = record(item.finding_info)
  const cloud = record(item.cloud)
  const unmapped = record(item.unmapped)
  const remediation = record(item.remediation)
  const checkId = text(metadata.event_code, 200) ?? ''
  const resources = list(item.resources).filter(isRecord)
  const firstResource = resources[0] ?? {}
  const provider =
    text(cloud.provider, 40) ??
    text(firstResource.cloud_partition, 40) ??
    (firstResource.namespace !== undefined ? 'kubernetes' : 'unknown')
  const shared = {
    status: text(item.status_code, 20) ?? '',
    severity: text(item.severity, 20) ?? '',
    checkId,
    title: text(info.title, 500),
    provider,
    account: text(record(cloud.account).uid, 200) ?? '',
    description: joinText(text(info.desc), text(item.risk_details)),
    remediation: text(remediation.desc),
    references: texts([...list(remediation.references), unmapped.related_url, ...list(unmapped.additional_urls)], 50),
    evidence: text(item.status_detail, PARSE_LIMITS.maxEvidenceChars) ?? text(item.message, PARSE_LIMITS.maxEvidenceChars),
    tags: texts([...texts(unmapped.categories), ...list(info.types)], 30),
    frameworks: Object.keys(record(unmapped.compliance)).slice(0, 100),
    time: epochMs(item.time) ?? epochMs(item.time_dt) ?? epochMs(item.event_time) ?? epochMs(info.created_time),
    version: text(record(metadata.product).version, 100),
  }
  const raw = (resource: JsonRecord): JsonRecord => ({
    findingUid: text(info.uid),
    status: text(item.status, 40),
    severityId: item.severity_id,
    compliance: boundedRaw(record(unmapped.compliance)),
    resourceType: text(resource.type, 200),
    resourceName: text(resource.name, 500),
    ...(text(unmapped.notes) ? { notes: text(unmapped.notes) } : {}),
  })
  const atResource = (resource: JsonRecord, index: number): ProwlerResult => {
    const namespace = text(resource.namespace, 200)
    return {
      ...shared,
      where: resources.length > 1 ? `${where}.resources[${index}]` : where,
      region: text(resource.region, 100) ?? text(cloud.region, 100) ?? (namespace ? `namespace: ${namespace}` : ''),
      cloudService: text(record(resource.group).name, 100) ?? serviceOfCheck(checkId),
      resource: text(resource.uid, 1000) ?? text(resource.name, 1000) ?? '',
      raw: raw(resource),
    }
  }
  return resources.length ? resources.map(atResource) : [atResource({}, 0)]
}

export const prowlerOcsfParser: ScanParser = {
  format: 'prowler_ocsf_json',
  label: OCSF_LABEL,
  services: ['cloud'],
  sniff(head) {
    return /^\s*\[/.test(head) && /"event_code"\s*:/.test(head) && /"status_code"\s*:/.test(head) && /"name"\s*:\s*"Prowler"/.test(head)
  },
  async parse(source) {
    const scan = new ProwlerScan('prowler_ocsf_json')
    for await (const { value, path } of streamJsonValues(source, { formatLabel: OCSF_LABEL, paths: ['$.*'] })) {
      if (!path.startsWith('$[')) throw new ScanParseError(OCSF_LABEL, '$', 'not an array of findings')
      if (!isRecord(value)) {
        scan.notes.skip(path, 'the finding is not an object')
        continue
      }
      for (const result of ocsfResults(value, path)) scan.add(result)
    }
    return scan.result()
  },
}

/** "CIS-1.4: 1.20 | ISO27001: A.1, A.2" → ["CIS-1.4", "ISO27001"]. */
const csvFrameworks = (value: string | undefined) =>
  (value ?? '')
    .split('|')
    .map((part) => part.split(':')[0]?.trim() ?? '')
    .filter(Boolean)
    .slice(0, 100)

const CSV_MAPPED = [
  'STATUS',
  'SEVERITY',
  'CHECK_ID',
  'CHECK_TITLE',
  'PROVIDER',
  'ACCOUNT_UID',
  'ACCOUNT_ID',
  'REGION',
  'SERVICE_NAME',
  'RESOURCE_UID',
  'RESOURCE_ARN',
  'RESOURCE_ID',
  'DESCRIPTION',
  'RISK',
  'REMEDIATION_RECOMMENDATION_TEXT',
  'REMEDIATION_RECOMMENDATION_URL',
  'RELATED_URL',
  'ADDITIONAL_URLS',
  'STATUS_EXTENDED',
  'CATEGORIES',
  'TIMESTAMP',
  'ASSESSMENT_START_TIME',
  'PROWLER_VERSION',
]

function csvResult(row: Record<string, string>, where: string): ProwlerResult {
  const checkId = text(row.CHECK_ID, 200) ?? ''
  const raw: JsonRecord = {}
  for (const [key, value] of Object.entries(row)) if (!CSV_MAPPED.includes(key) && value !== '') raw[key] = bounded(value)
  return {
    where,
    status: row.STATUS ?? '',
    severity: row.SEVERITY ?? '',
    checkId,
    title: text(row.CHECK_TITLE, 500),
    provider: text(row.PROVIDER, 40) ?? 'unknown',
    account: text(row.ACCOUNT_UID, 200) ?? text(row.ACCOUNT_ID, 200) ?? '',
    region: text(row.REGION, 100) ?? '',
    cloudService: text(row.SERVICE_NAME, 100) ?? serviceOfCheck(checkId),
    resource: text(row.RESOURCE_UID, 1000) ?? text(row.RESOURCE_ARN, 1000) ?? text(row.RESOURCE_ID, 1000) ?? '',
    description: joinText(text(row.DESCRIPTION), text(row.RISK)),
    remediation: text(row.REMEDIATION_RECOMMENDATION_TEXT),
    references: texts([row.REMEDIATION_RECOMMENDATION_URL, row.RELATED_URL, ...(row.ADDITIONAL_URLS ?? '').split(/[|,]/)], 50),
    evidence: text(row.STATUS_EXTENDED, PARSE_LIMITS.maxEvidenceChars),
    tags: texts(row.CATEGORIES, 30),
    frameworks: csvFrameworks(row.COMPLIANCE),
    // Prowler writes "2025-02-14 14:27:03.913874" in UTC.
    time: epochMs(
      /^\d{4}-\d\d-\d\d \d/.test(row.TIMESTAMP ?? '')
        ? `${row.TIMESTAMP?.replace(' ', 'T')}Z`
        : (row.TIMESTAMP ?? row.ASSESSMENT_START_TIME),
    ),
    version: text(row.PROWLER_VERSION, 100),
    raw,
  }
}

export const prowlerCsvParser: ScanParser = {
  format: 'prowler_csv',
  label: CSV_LABEL,
  services: ['cloud'],
  sniff(head) {
    const header = head.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? ''
    const columns = header.split(';')
    return columns.includes('CHECK_ID') && columns.includes('STATUS') && (columns.includes('PROVIDER') || columns.includes('ACCOUNT_UID'))
  },
  async parse(source) {
    const scan = new ProwlerScan('prowler_csv')
    let header: string[] | null = null
    for await (const { cells, line } of csvRows(source, { formatLabel: CSV_LABEL, delimiter: ';' })) {
      if (!header) {
        header = cells.map((cell) => cell.trim())
        if (!header.includes('CHECK_ID') || !header.includes('STATUS'))
          throw new ScanParseError(CSV_LABEL, `line ${line}`, 'the header has no CHECK_ID and STATUS columns')
        continue
      }
      if (cells.length !== header.length) {
        scan.notes.skip(`line ${line}`, `${cells.length} fields where the header has ${header.length}`)
        continue
      }
      const fields: Record<string, string> = {}
      header.forEach((name, index) => (fields[name] = cells[index] ?? ''))
      scan.add(csvResult(fields, `line ${line}`))
    }
    if (!header) throw new ScanParseError(CSV_LABEL, 'line 1', 'the file is empty')
    return scan.result()
  },
}
