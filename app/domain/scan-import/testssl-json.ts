// testssl.sh's JSON: `--jsonfile` (a flat array of checks) and `--jsonfile-pretty` (scanResult[]
// per target, the checks grouped by section). Checks of severity LOW and above are findings; OK and
// INFO are counted; the server certificate (cert_* ids) becomes a certificate asset.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, cweIds, epochMs, int, isRecord, Notes, text, underLimit, type JsonRecord } from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, type ParsedAsset, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'

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
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const targets = new Set<string>()
    const certificates = new Map<string, Certificate>()
    const severities: Record<string, number> = {}
    const header: JsonRecord = {}
    let checks = 0
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
      if (!isRecord(value)) {
        notes.skip(path, 'the check is not an object')
        continue
      }
      checks++
      const id = text(value.id, 200)
      const severityText = text(value.severity, 20)?.toUpperCase() ?? ''
      if (!id) {
        notes.skip(path, 'the check has no id')
        continue
      }
      severities[severityText || 'NONE'] = (severities[severityText || 'NONE'] ?? 0) + 1
      const flat = hostAndIp(text(value.ip, 300))
      const host = target.host ?? flat.host
      const ip = target.ip ?? flat.ip ?? (target.host ? undefined : flat.host)
      const port = int(target.port ?? value.port, 0, 65535)
      if (id === 'scanProblem' || severityText === 'FATAL') notes.warn(path, `testssl.sh: ${text(value.finding, 500) ?? id}`)
      if (!host) continue
      targets.add(port ? `${host}:${port}` : host)
      const finding = text(value.finding)
      const cert = /^cert_(notAfter|caIssuers|commonName)(?: <(.+)>)?$/.exec(id)
      if (cert?.[1]) {
        const key = `${host}:${port ?? ''} ${cert[2] ?? ''}`
        const entry = certificates.get(key) ?? { host }
        if (cert[1] === 'notAfter') entry.notAfter = certificateDate(finding)
        if (cert[1] === 'caIssuers') entry.issuer = finding
        if (cert[1] === 'commonName') entry.commonName = finding
        certificates.set(key, entry)
      }
      const severity = FINDING_SEVERITY[severityText]
      if (!severity) continue
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) continue
      findings.push({
        ruleId: id,
        title: finding ? `${id}: ${text(finding, 300)}` : id,
        severity,
        target: { kind: 'host', host, ip: ip && ip !== host ? ip : undefined, port, protocol: 'tcp' },
        cve: cveIds(value.cve),
        cwe: cweIds(text(value.cwe)?.split(/\s+/)),
        evidence: text(value.finding, PARSE_LIMITS.maxEvidenceChars),
        raw: { severity: severityText, ...(value.hint !== undefined ? { hint: text(value.hint) } : {}), where: path },
      })
    }
    const assets: ParsedAsset[] = [...certificates.values()].map((cert) => ({
      type: 'certificate',
      value: cert.commonName ?? cert.host,
      parent: cert.host,
      notAfter: cert.notAfter ?? null,
      issuer: cert.issuer,
    }))
    const startedAt = epochMs(int(header.startTime))
    const scanTime = int(header.scanTime)
    const scan: ParsedScan = {
      format: 'testssl_json',
      tool: { name: 'testssl.sh', version: text(header.version, 100) ?? '' },
      startedAt,
      finishedAt: startedAt !== null && scanTime !== undefined ? startedAt + scanTime * 1000 : null,
      targets: [...targets],
      findings,
      assets,
      statistics: {
        checks,
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
    return scan
  },
}
