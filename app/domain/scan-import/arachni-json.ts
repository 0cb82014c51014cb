// Arachni's JSON report (`arachni_reporter scan.afr --reporter=json:outfile=scan.json`, Arachni
// 1.x): the version, the seed URL, start and finish times, and the issues, each with its check
// (shortname), name, severity, CWE, description, remedy guidance, references, tags, the vector it
// was found in (the element type, its URL or form action, method and the affected input), the
// proof, and the request and response that show it. One finding per check, URL, method and input
// (rule id arachni:<check shortname>); untrusted issues (Arachni could not verify them) are tagged.
// Issues are read one at a time; the pages they carry are bounded like every string.
import type { Severity } from '../template-vocabulary.ts'
import { cweIds, isRecord, list, Notes, record, tally, text, texts, underLimit } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { fitRaw, keepRepeatText } from './raw-fields.ts'
import { fromOffsetDateText, unique } from './scan-collector.ts'

const LABEL = 'Arachni JSON'

const SEVERITY: Record<string, Severity> = { high: 'high', medium: 'medium', low: 'low', informational: 'info', info: 'info' }

export const arachniRuleId = (check: string) => `arachni:${check}`

/** An HTTP message as Arachni keeps it: the request or status line and headers, then the body. */
function message(value: unknown): string | undefined {
  const m = record(value)
  const head = text(m.headers_string, PARSE_LIMITS.maxEvidenceChars)?.replace(/\r\n/g, '\n')
  const body = text(m.body, PARSE_LIMITS.maxEvidenceChars)?.replace(/\r\n/g, '\n')
  const whole = [head, body].filter(Boolean).join('\n')
  return whole ? bounded(whole, PARSE_LIMITS.maxEvidenceChars) : undefined
}

export const arachniJsonParser: ScanParser = {
  format: 'arachni_json',
  label: LABEL,
  services: ['dast'],
  sniff(head) {
    if (!/^\s*\{/.test(head) || !/"issues"\s*:\s*\[|"sitemap"\s*:/.test(head)) return false
    return /"seed"\s*:/.test(head) && /"(start|finish)_datetime"\s*:|"delta_time"\s*:|Arachni::/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = { issues: 0, untrusted: 0, duplicateIssues: 0 }
    const header: Record<string, unknown> = {}
    const seen = new Map<string, ParsedFinding>()
    const hosts = new Map<string, URL>()
    const paths = ['$.version', '$.options.url', '$.start_datetime', '$.finish_datetime', '$.issues.*']
    for await (const { value, path } of streamJsonValues(input, { formatLabel: LABEL, paths })) {
      if (!path.startsWith('$.issues[')) {
        header[path.slice(2)] = value
        continue
      }
      statistics.issues!++
      if (!isRecord(value)) {
        notes.skip(path, 'the issue is not an object')
        continue
      }
      const check = record(value.check)
      const shortname = text(check.shortname, 200)
      const name = text(value.name, 500)
      const vector = record(value.vector)
      const request = record(value.request)
      const url = text(vector.action, 2_048) ?? text(vector.url, 2_048) ?? text(request.url, 2_048)
      if (!shortname || !name || !url) {
        notes.skip(path, `${name ?? 'an issue'}: no check, name or URL`)
        continue
      }
      const method = (text(request.method, 10) ?? text(vector.method, 10))?.toUpperCase()
      const parameter = text(vector.affected_input_name, 500)
      const ruleId = arachniRuleId(shortname)
      const proof = text(value.proof, PARSE_LIMITS.maxEvidenceChars)
      const key = `${url}\u001f${method ?? ''}\u001f${parameter ?? ''}\u001f${ruleId}`
      const same = seen.get(key)
      if (same) {
        statistics.duplicateIssues!++
        keepRepeatText(same, 'moreProofs', proof)
        continue
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) continue
      const severityText = text(value.severity, 20)?.toLowerCase() ?? ''
      const severity =
        SEVERITY[severityText] ??
        (notes.warn(path, `${name}: severity ${JSON.stringify(value.severity ?? null)} read as info`), 'info' as const)
      tally(statistics, `severity:${severity}`)
      const trusted = value.trusted !== false
      if (!trusted) statistics.untrusted!++
      try {
        const parsed = new URL(url)
        hosts.set(parsed.host, parsed)
      } catch {
        // A URL Arachni could not have requested: the finding keeps it as written.
      }
      const references = unique(
        Object.values(record(value.references))
          .map((r) => text(r, 2_048) ?? '')
          .filter((r) => /^https?:\/\//i.test(r)),
      ).slice(0, 50)
      const tags = [...texts(value.tags, 20), ...(trusted ? [] : ['untrusted'])]
      const finding: ParsedFinding = {
        ruleId,
        title: name,
        severity,
        target: { kind: 'url', url, ...(method ? { method } : {}), ...(parameter ? { parameter } : {}) },
        ...(cweIds(value.cwe).length > 0 ? { cwe: cweIds(value.cwe) } : {}),
        ...(tags.length > 0 ? { tags } : {}),
        ...(text(value.description) ? { description: text(value.description) } : {}),
        ...(text(value.remedy_guidance) ? { remediation: text(value.remedy_guidance) } : {}),
        ...(references.length > 0 ? { references } : {}),
        ...(proof ? { evidence: proof } : {}),
        ...(message(request) ? { request: message(request) } : {}),
        ...(message(value.response) ? { response: message(value.response) } : {}),
        raw: fitRaw({
          check: shortname,
          ...(text(check.name, 200) ? { checkName: text(check.name, 200) } : {}),
          ...(text(check.version, 20) ? { checkVersion: text(check.version, 20) } : {}),
          element: text(vector.type, 40) ?? null,
          trusted,
          ...(text(value.signature, 2_000) ? { signature: text(value.signature, 2_000) } : {}),
          ...(typeof value.digest === 'number' || typeof value.digest === 'string' ? { digest: String(value.digest) } : {}),
          ...(text(record(value.response).ip_address, 100) ? { ip: text(record(value.response).ip_address, 100) } : {}),
          ...(list(value.remarks).length > 0 || Object.keys(record(value.remarks)).length > 0 ? { remarks: value.remarks } : {}),
        }),
      }
      seen.set(key, finding)
      findings.push(finding)
    }
    if (header.version === undefined && statistics.issues === 0)
      throw new ScanParseError(LABEL, 'file', 'no version or issues: not an Arachni report')

    const seed = text(header['options.url'], 2_048)
    const assets: ParsedAsset[] = []
    for (const url of [...(seed ? [seed] : []), ...[...hosts.values()].map((u) => u.href)]) {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        continue
      }
      if (assets.some((a) => a.value === parsed.hostname)) continue
      const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80)
      assets.push({
        type: 'host',
        value: parsed.hostname,
        ports: [{ port, protocol: 'tcp', service: parsed.protocol === 'https:' ? 'https' : 'http' }],
      })
    }
    const scan: ParsedScan = {
      format: 'arachni_json',
      tool: { name: 'Arachni', version: text(header.version, 40) ?? '' },
      startedAt: fromOffsetDateText(header.start_datetime),
      finishedAt: fromOffsetDateText(header.finish_datetime),
      targets: seed ? [seed] : [...hosts.keys()],
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
