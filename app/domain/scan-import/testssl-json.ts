// testssl.sh's JSON: `--jsonfile` (a flat array of checks) and `--jsonfile-pretty` (scanResult[]
// per target, the checks grouped by section). Checks of severity LOW and above are findings; OK and
// INFO are counted; the server certificate (cert_* ids) becomes a certificate asset.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, cweIds, epochMs, int, isRecord, Notes, text, underLimit, type JsonRecord } from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanFormat,
  type ScanParser,
} from './parsed-scan.ts'

const LABEL = 'testssl.sh JSON'

const FINDING_SEVERITY: Record<string, Severity> = { LOW: 'low', MEDIUM: 'medium', HIGH: 'high', CRITICAL: 'critical' }

/** "example.com/93.184.216.34" (or a bare IP) as testssl.sh writes its "ip" field. */
function hostAndIp(value: string | undefined): { host: string; ip?: string } {
  const [host = '', ip] = (value ?? '').split('/', 2)
  return ip ? { host, ip } : { host }
}

/** testssl.sh's dates: "2025-03-01 12:00" (UTC). */
function certificateDate(value: string | undefined): number | null {
  const match = value && /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d)/.exec(value)
  return match ? Date.parse(`${match[1]}T${match[2]}:00Z`) : null
}

interface Certificate {
  host: string
  commonName?: string
  notAfter?: number | null
  issuer?: string
}

/** One check as both outputs write it: --jsonfile's objects and the CSV's rows have the same fields. */
export interface TestsslCheck {
  id?: unknown
  ip?: unknown
  port?: unknown
  severity?: unknown
  cve?: unknown
  cwe?: unknown
  finding?: unknown
  hint?: unknown
}

/** The findings, targets, certificate assets and figures of testssl.sh's checks, whichever output they come from. */
export class TestsslChecks {
  readonly notes = new Notes()
  readonly findings: ParsedFinding[] = []
  private readonly targets = new Set<string>()
  private readonly certificates = new Map<string, Certificate>()
  private readonly severities: Record<string, number> = {}
  private checks = 0

  /** A check read at `where`; `target` is the pretty output's scanResult entry, when there is one. */
  add(value: unknown, where: string, target: Partial<Record<'host' | 'ip' | 'port', string>> = {}) {
    const { notes, findings, severities } = this
    if (!isRecord(value)) {
      notes.skip(where, 'the check is not an object')
      return
    }
    this.checks++
    const id = text(value.id, 200)
    const severityText = text(value.severity, 20)?.toUpperCase() ?? ''
    if (!id) {
      notes.skip(where, 'the check has no id')
      return
    }
    severities[severityText || 'NONE'] = (severities[severityText || 'NONE'] ?? 0) + 1
    const flat = hostAndIp(text(value.ip, 300))
    const host = target.host ?? flat.host
    const ip = target.ip ?? flat.ip ?? (target.host ? undefined : flat.host)
    const port = int(target.port ?? value.port, 0, 65535)
    if (id === 'scanProblem' || severityText === 'FATAL') notes.warn(where, `testssl.sh: ${text(value.finding, 500) ?? id}`)
    if (!host) return
    this.targets.add(port ? `${host}:${port}` : host)
    const finding = text(value.finding)
    const cert = /^cert_(notAfter|caIssuers|commonName)(?: <(.+)>)?$/.exec(id)
    if (cert?.[1]) {
      const key = `${host}:${port ?? ''} ${cert[2] ?? ''}`
      const entry = this.certificates.get(key) ?? { host }
      if (cert[1] === 'notAfter') entry.notAfter = certificateDate(finding)
      if (cert[1] === 'caIssuers') entry.issuer = finding
      if (cert[1] === 'commonName') entry.commonName = finding
      this.certificates.set(key, entry)
    }
    const severity = FINDING_SEVERITY[severityText]
    if (!severity) return
    if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) return
    findings.push({
      ruleId: id,
      title: finding ? `${id}: ${text(finding, 300)}` : id,
      severity,
      target: { kind: 'host', host, ip: ip && ip !== host ? ip : undefined, port, protocol: 'tcp' },
      cve: cveIds(value.cve),
      cwe: cweIds(text(value.cwe)?.split(/\s+/)),
      evidence: text(value.finding, PARSE_LIMITS.maxEvidenceChars),
      raw: { severity: severityText, ...(value.hint !== undefined ? { hint: text(value.hint) } : {}), where },
    })
  }

  result(format: ScanFormat, header: JsonRecord = {}): ParsedScan {
    const { notes, findings, severities } = this
    const assets: ParsedAsset[] = [...this.certificates.values()].map((cert) => ({
      type: 'certificate',
      value: cert.commonName ?? cert.host,
      parent: cert.host,
      notAfter: cert.notAfter ?? null,
      issuer: cert.issuer,
    }))
    const startedAt = epochMs(int(header.startTime))
    const scanTime = int(header.scanTime)
    return {
      format,
      tool: { name: 'testssl.sh', version: text(header.version, 100) ?? '' },
      startedAt,
      finishedAt: startedAt !== null && scanTime !== undefined ? startedAt + scanTime * 1000 : null,
      targets: [...this.targets],
      findings,
      assets,
      statistics: {
        checks: this.checks,
        ok: severities.OK ?? 0,
        info: severities.INFO ?? 0,
        low: severities.LOW ?? 0,
        medium: severities.MEDIUM ?? 0,
        high: severities.HIGH ?? 0,
        critical: severities.CRITICAL ?? 0,
        warn: severities.WARN ?? 0,
        findings: findings.length,
        skipped: notes.skipped,
        notesNotKept: notes.dropped,
      },
      notes: notes.kept,
    }
  }
}

export const testsslJsonParser: ScanParser = {
  format: 'testssl_json',
  label: LABEL,
  services: ['network', 'projectmariana'],
  sniff(head) {
    if (/^\s*\{/.test(head))
      return /"scanResult"\s*:/.test(head) || (/"Invocation"\s*:\s*"[^"]*testssl/.test(head) && /"openssl"\s*:/.test(head))
    return /^\s*\[\s*\{\s*"id"\s*:\s*"[^"]+"\s*,\s*"ip"\s*:\s*"[^"]*"\s*,\s*"port"\s*:\s*"\d*"\s*,\s*"severity"\s*:/.test(head)
  },
  async parse(input) {
    const checks = new TestsslChecks()
    const header: JsonRecord = {}
    let target: Partial<Record<'host' | 'ip' | 'port', string>> = {}
    const { first, source } = await peekSource(input)
    if (first !== '[' && first !== '{')
      throw new ScanParseError(LABEL, 'line 1', 'neither a --jsonfile array nor a --jsonfile-pretty object')
    const paths =
      first === '['
        ? ['$.*']
        : [
            '$.version',
            '$.startTime',
            '$.scanTime',
            '$.scanResult.*.targetHost',
            '$.scanResult.*.ip',
            '$.scanResult.*.port',
            '$.scanResult.*.*.*',
          ]
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      const field = /^\$\.scanResult\[\d+\]\.(targetHost|ip|port)$/.exec(path)?.[1] as 'targetHost' | 'ip' | 'port' | undefined
      if (field === 'targetHost') target = {}
      if (field) {
        target[field === 'targetHost' ? 'host' : field] = text(value, 300)
        continue
      }
      if (/^\$\.\w+$/.test(path)) {
        header[path.slice(2)] = value
        continue
      }
      checks.add(value, path, target)
    }
    return checks.result('testssl_json', header)
  },
}
