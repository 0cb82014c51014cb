// Wapiti's JSON report (`-f json`): classifications{category: desc, sol, ref}, then
// vulnerabilities{category: [entry]}, anomalies{...} and additionals{...}, and infos{target,
// date, version}. One finding per entry; the category is the rule. Entries hold a path, so their
// URLs are made from the target's origin, which comes last in the file: entries are kept (bounded)
// until then.
import type { Severity } from '../template-vocabulary.ts'
import { boundedRaw, cweIds, epochMs, isRecord, Notes, record, tally, text, underLimit, type JsonRecord } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'

const LABEL = 'Wapiti JSON'

/** Wapiti's levels: 4 critical to 1 low; 0 is informational. */
export const WAPITI_LEVELS: Record<number, Severity> = { 4: 'critical', 3: 'high', 2: 'medium', 1: 'low', 0: 'info' }
type Section = 'vulnerabilities' | 'anomalies' | 'additionals'
const ENTRY_FIELDS = ['method', 'path', 'info', 'level', 'parameter', 'http_request']
const ENTRY_PATH = /^\$\.(vulnerabilities|anomalies|additionals)(?:\.([\w@$-]+)|\[("(?:[^"\\]|\\.)*")\])\[(\d+)\]$/

/** The header a "… is not set" entry names, so that each missing header is its own finding. */
export const wapitiHeaderNamed = (info: string | undefined) => (info ? /^([A-Za-z-]+) is not set$/.exec(info)?.[1] : undefined)

interface Entry {
  section: Section
  category: string
  where: string
  value: JsonRecord
}

export const wapitiJsonParser: ScanParser = {
  format: 'wapiti_json',
  label: LABEL,
  services: ['dast'],
  sniff(head) {
    return (
      /^\s*\{\s*"classifications"\s*:/.test(head) ||
      (/"vulnerabilities"\s*:/.test(head) && /"infos"\s*:\s*\{[^}]*"version"\s*:\s*"Wapiti/.test(head))
    )
  },
  async parse(source) {
    const notes = new Notes()
    const classifications = new Map<string, JsonRecord>()
    const entries: Entry[] = []
    let infos: JsonRecord | null = null
    const paths = ['$.classifications.*', '$.vulnerabilities.*.*', '$.anomalies.*.*', '$.additionals.*.*', '$.infos']
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      if (path === '$.infos') {
        infos = record(value)
        continue
      }
      const classification = /^\$\.classifications(?:\.([\w@$-]+)|\[("(?:[^"\\]|\\.)*")\])$/.exec(path)
      if (classification) {
        const name = classification[1] ?? (JSON.parse(classification[2]!) as string)
        classifications.set(name, record(value))
        continue
      }
      const entry = ENTRY_PATH.exec(path)
      if (!entry) continue
      if (!isRecord(value)) {
        notes.skip(path, 'the entry is not an object')
        continue
      }
      if (!underLimit(entries.length, PARSE_LIMITS.findings, notes, path, 'findings')) continue
      entries.push({ section: entry[1] as Section, category: entry[2] ?? (JSON.parse(entry[3]!) as string), where: path, value })
    }
    if (!infos || !/wapiti/i.test(text(infos.version) ?? ''))
      throw new ScanParseError(LABEL, '$.infos', 'no Wapiti report: infos.version does not name Wapiti')
    const target = text(infos.target) ?? ''
    let origin: string
    try {
      origin = new URL(target).origin
    } catch {
      throw new ScanParseError(LABEL, '$.infos.target', `the target ${JSON.stringify(target.slice(0, 200))} is not a URL`)
    }
    const statistics: Record<string, number> = { vulnerabilities: 0, anomalies: 0, additionals: 0 }
    const findings: ParsedFinding[] = []
    for (const { section, category, where, value } of entries) {
      statistics[section] = (statistics[section] ?? 0) + 1
      const level = typeof value.level === 'number' ? value.level : Number(value.level)
      const severity = WAPITI_LEVELS[level]
      if (!severity) {
        notes.skip(where, `unknown level ${JSON.stringify(value.level)}`)
        continue
      }
      tally(statistics, severity)
      const path = text(value.path) ?? '/'
      const info = text(value.info, 2_000)
      const parameter = text(value.parameter, 500) || wapitiHeaderNamed(info)
      const about = classifications.get(category) ?? {}
      const references = Object.entries(record(about.ref))
        .map(([name, url]) => `${name}: ${String(url)}`)
        .slice(0, 50)
      findings.push({
        ruleId: category.slice(0, 200),
        title: bounded(wapitiHeaderNamed(info) ? info : category, 500),
        severity,
        target: {
          kind: 'url',
          url: `${origin}${path.startsWith('/') ? path : `/${path}`}`,
          method: text(value.method, 16)?.toUpperCase(),
          parameter,
        },
        cwe: cweIds(Object.keys(record(about.ref)).flatMap((name) => /CWE-(\d+)/i.exec(name)?.[1] ?? [])),
        description: text(about.desc),
        remediation: text(about.sol),
        references,
        evidence: info,
        request: text(value.http_request, PARSE_LIMITS.maxEvidenceChars),
        raw: { section, ...boundedRaw(value, ENTRY_FIELDS) },
      })
    }
    const scan: ParsedScan = {
      format: 'wapiti_json',
      tool: { name: 'Wapiti', version: (text(infos.version, 100) ?? '').replace(/^Wapiti\s*/i, '') },
      startedAt: null,
      finishedAt: epochMs(infos.date),
      targets: target ? [target] : [],
      findings,
      assets: [],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
