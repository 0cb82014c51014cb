// Nuclei's results, as a JSON array (-json-export) or JSON Lines (-jsonl, and -json before v3), with
// the old key names (templateID, matched, extracted_results) and the new ones (template-id,
// matched-at, extracted-results, info.classification). One finding per result; a template's matcher
// (each missing header of http-missing-security-headers) is a check of its own.
import { SEVERITIES, type Severity } from '../template-vocabulary.ts'
import {
  boundedRaw,
  cveIds,
  cweIds,
  epochMs,
  int,
  isRecord,
  Notes,
  num,
  record,
  text,
  texts,
  underLimit,
  type JsonRecord,
} from './json-fields.ts'
import { jsonLines, peekSource, streamJsonValues, type JsonValue } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type FindingTarget,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'

const LABEL = 'Nuclei JSON'

const RESULT_FIELDS = [
  'template-id',
  'templateID',
  'info',
  'matched-at',
  'matched',
  'host',
  'ip',
  'port',
  'matcher-name',
  'matcher_name',
  'extracted-results',
  'extracted_results',
  'request',
  'response',
  'timestamp',
]
const INFO_FIELDS = ['name', 'severity', 'description', 'remediation', 'reference', 'tags', 'classification']

/** A CVSS vector and score, when both are there and the vector names its version. */
function cvssOf(classification: JsonRecord): ParsedFinding['cvss'] {
  const vector = text(classification['cvss-metrics'], 200)
  const score = num(classification['cvss-score'])
  const version = vector && /^CVSS:(\d\.\d)\//.exec(vector)?.[1]
  return vector && version && score !== undefined && score >= 0 && score <= 10 ? { version, vector, score } : undefined
}

/** References as Nuclei writes them: an array, or one string of "- url" lines. */
function referencesOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split('\n') : []
  return texts(items.map((item) => (typeof item === 'string' ? item.replace(/^\s*-\s*/, '') : item)))
}

/** "host:port", "[v6]:port" or a bare host, as Nuclei writes non-HTTP matches. */
function hostAndPort(value: string): { host: string; port?: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(value)
  if (v6?.[1]) return { host: v6[1], port: int(v6[2], 1, 65535) }
  const plain = /^([^:/\s]+)(?::(\d+))?$/.exec(value)
  if (plain?.[1]) return { host: plain[1], port: int(plain[2], 1, 65535) }
  try {
    const url = new URL(value)
    return { host: url.hostname, port: int(url.port, 1, 65535) }
  } catch {
    return { host: value }
  }
}

function targetOf(result: JsonRecord, matchedAt: string | undefined, parameter: string | undefined): FindingTarget | null {
  const type = text(result.type, 40)?.toLowerCase()
  const url = [matchedAt, text(result.url), text(result.host)].find((candidate) => candidate && /^https?:\/\//i.test(candidate))
  if (url && (type === 'http' || type === 'headless' || type === undefined || matchedAt === url)) {
    return { kind: 'url', url, parameter }
  }
  const where = matchedAt ?? text(result.host)
  if (!where) return null
  const { host, port } = hostAndPort(where)
  const ip = text(result.ip, 100)?.replace(/\.$/, '')
  return {
    kind: 'host',
    host,
    ip: ip && ip !== host ? ip : undefined,
    port: port ?? int(result.port, 1, 65535),
    protocol: type === 'dns' ? 'udp' : type === 'network' || type === 'tcp' || type === 'ssl' ? 'tcp' : undefined,
  }
}

export const nucleiJsonParser: ScanParser = {
  format: 'nuclei_json',
  label: LABEL,
  services: ['dast', 'projectmariana'],
  sniff(head) {
    return /^\s*[[{]/.test(head) && /"(template-id|templateID)"\s*:\s*"/.test(head) && /"info"\s*:\s*\{/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const targets = new Set<string>()
    const byType: Record<string, number> = {}
    let results = 0
    let first: number | null = null
    let last: number | null = null
    const { first: start, source } = await peekSource(input)
    let values: AsyncIterable<JsonValue>
    if (start === '[') values = streamJsonValues(source, { formatLabel: LABEL, paths: ['$.*'] })
    else if (start === '{' || start === '') values = jsonLines(source, 'Nuclei JSONL')
    else throw new ScanParseError(LABEL, 'line 1', 'neither a JSON array nor JSON Lines')
    const isArray = start === '['
    for await (const { value, path, line } of values) {
      results++
      const where = isArray ? path : `line ${line}`
      if (!isRecord(value)) {
        notes.skip(where, 'the result is not an object')
        continue
      }
      const info = record(value.info)
      const ruleId = text(value['template-id'], 200) ?? text(value.templateID, 200)
      if (!ruleId) {
        notes.skip(where, 'the result has no template-id')
        continue
      }
      const severityText = text(info.severity, 20)?.toLowerCase()
      const severity: Severity = SEVERITIES.find((s) => s === severityText) ?? 'info'
      if (severity !== severityText) notes.warn(where, `template ${ruleId}: severity ${JSON.stringify(info.severity ?? null)} read as info`)
      const matchedAt = text(value['matched-at']) ?? text(value.matched)
      const matcher = text(value['matcher-name'], 200) ?? text(value.matcher_name, 200)
      // The matcher tells two matches of one template at one place apart (tech-detect:nginx, :php).
      const target = targetOf(value, matchedAt, matcher)
      if (!target) {
        notes.skip(where, `template ${ruleId}: the result says neither where it matched nor the host`)
        continue
      }
      const host = text(value.host)
      if (host) targets.add(host)
      const type = text(value.type, 40) ?? 'unknown'
      byType[type] = (byType[type] ?? 0) + 1
      const at = epochMs(value.timestamp)
      if (at !== null) {
        first = first === null ? at : Math.min(first, at)
        last = last === null ? at : Math.max(last, at)
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) continue
      const classification = record(info.classification)
      const extracted = texts(value['extracted-results'] ?? value.extracted_results, 50)
      const name = text(info.name, 500) ?? ruleId
      findings.push({
        ruleId,
        check: matcher,
        title: matcher ? `${name}: ${matcher}` : name,
        severity,
        target,
        cvss: cvssOf(classification),
        cwe: cweIds(classification['cwe-id']),
        cve: cveIds(classification['cve-id']),
        tags: texts(info.tags, 50),
        description: text(info.description),
        remediation: text(info.remediation),
        references: referencesOf(info.reference),
        evidence: extracted.length ? bounded(extracted.join('\n'), PARSE_LIMITS.maxEvidenceChars) : matchedAt,
        request: text(value.request, PARSE_LIMITS.maxEvidenceChars),
        response: text(value.response, PARSE_LIMITS.maxEvidenceChars),
        raw: {
          ...boundedRaw(value, RESULT_FIELDS),
          ...(matchedAt ? { 'matched-at': matchedAt } : {}),
          ...(host ? { host } : {}),
          ...(value.ip !== undefined ? { ip: text(value.ip, 100) } : {}),
          ...(at !== null ? { timestamp: text(value.timestamp, 100) } : {}),
          info: boundedRaw(info, INFO_FIELDS),
          ...(Object.keys(classification).length ? { classification: boundedRaw(classification) } : {}),
        },
      })
    }
    const scan: ParsedScan = {
      format: 'nuclei_json',
      tool: { name: 'Nuclei', version: '' },
      startedAt: first,
      finishedAt: last,
      targets: [...targets],
      findings,
      assets: [],
      statistics: { results, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped, ...prefixed(byType) },
      notes: notes.kept,
    }
    return scan
  },
}

const prefixed = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).map(([type, n]) => [`type:${type}`, n]))
