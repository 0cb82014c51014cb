// SARIF 2.1.0: runs[].results[], one finding per result, read with the rules of its run's
// tool.driver (and extensions). Severity: the rule's properties.security-severity (a CVSS-like
// score) when there is one, otherwise the result's level or the rule's default level (error → high,
// warning → medium, note → low, none → info; SARIF's default is warning). Where: the first
// location's artifact URI (an http(s) URI is a URL target; a file keeps its path and line) or its
// logical location.
import type { Severity } from '../template-vocabulary.ts'
import { boundedRaw, cweIds, int, isRecord, list, Notes, num, record, text, texts, underLimit, type JsonRecord } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, type FindingTarget, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'

const LABEL = 'SARIF'

const LEVEL: Record<string, Severity> = { error: 'high', warning: 'medium', note: 'low', none: 'info' }

function fromScore(score: number): Severity {
  return score >= 9 ? 'critical' : score >= 7 ? 'high' : score >= 4 ? 'medium' : score > 0 ? 'low' : 'info'
}

/** A message's text, or its rule's message string with the arguments in place. */
function messageText(message: JsonRecord, rule: JsonRecord): string | undefined {
  const own = text(message.text) ?? text(message.markdown)
  if (own) return own
  const id = text(message.id, 200)
  const template = id ? text(record(record(rule.messageStrings)[id]).text) : undefined
  const args = list(message.arguments)
  return template?.replace(/\{(\d+)\}/g, (all, n: string) => text(args[Number(n)]) ?? all)
}

function targetOf(result: JsonRecord): FindingTarget | null {
  const location = record(list(result.locations)[0])
  const physical = record(location.physicalLocation)
  const uri = text(record(physical.artifactLocation).uri)
  const line = int(record(physical.region).startLine, 1)
  if (uri) {
    if (/^https?:\/\//i.test(uri)) return { kind: 'url', url: uri }
    return { kind: 'url', url: uri, parameter: line ? `line ${line}` : undefined }
  }
  const logical = record(list(location.logicalLocations)[0])
  const name = text(logical.fullyQualifiedName, 1000) ?? text(logical.name, 1000)
  if (!name) return null
  const hostPort = /^([\w.-]+):(\d{1,5})$/.exec(name)
  if (hostPort?.[1]) return { kind: 'host', host: hostPort[1], port: int(hostPort[2], 1, 65535) }
  return { kind: 'url', url: name }
}

interface PendingResult {
  run: number
  where: string
  value: JsonRecord
}

export const sarifParser: ScanParser = {
  format: 'sarif',
  label: LABEL,
  services: ['dast', 'network'],
  sniff(head) {
    return (
      /^\s*\{/.test(head) &&
      (/"\$schema"\s*:\s*"[^"]*sarif/i.test(head) || (/"version"\s*:\s*"2\.1\.0"/.test(head) && /"runs"\s*:\s*\[/.test(head)))
    )
  },
  async parse(source) {
    const notes = new Notes()
    const pending: PendingResult[] = []
    const tools = new Map<number, JsonRecord>()
    let version: string | undefined
    const paths = ['$.version', '$.runs.*.tool', '$.runs.*.results.*']
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      if (path === '$.version') {
        version = text(value, 20)
        continue
      }
      const run = Number(/^\$\.runs\[(\d+)\]/.exec(path)?.[1] ?? -1)
      if (path.endsWith('.tool')) tools.set(run, record(value))
      else if (!isRecord(value)) notes.skip(path, 'the result is not an object')
      else if (pending.length < PARSE_LIMITS.findings) pending.push({ run, where: path, value })
      else underLimit(pending.length, PARSE_LIMITS.findings, notes, path, 'results')
    }
    if (version === undefined && tools.size === 0) throw new ScanParseError(LABEL, '$', 'no SARIF log: neither "version" nor "runs" found')
    if (version && version !== '2.1.0') notes.warn('$.version', `SARIF ${version} read as 2.1.0`)
    // Rules of every run, by id and by index, from the driver and its extensions.
    const rulesOf = new Map<number, { byId: Map<string, JsonRecord>; byIndex: JsonRecord[] }>()
    for (const [run, tool] of tools) {
      const driverRules = list(record(tool.driver).rules).map(record)
      const all = [...driverRules, ...list(tool.extensions).flatMap((extension) => list(record(extension).rules).map(record))]
      rulesOf.set(run, { byId: new Map(all.map((rule) => [text(rule.id, 200) ?? '', rule])), byIndex: driverRules })
    }
    const findings: ParsedFinding[] = []
    for (const { run, where, value } of pending) {
      const rules = rulesOf.get(run)
      const ruleIndex = int(value.ruleIndex) ?? int(record(value.rule).index)
      const ruleId =
        text(value.ruleId, 200) ??
        text(record(value.rule).id, 200) ??
        (ruleIndex !== undefined ? text(rules?.byIndex[ruleIndex]?.id, 200) : undefined)
      if (!ruleId) {
        notes.skip(where, 'the result names no rule')
        continue
      }
      const rule = rules?.byId.get(ruleId) ?? (ruleIndex !== undefined ? rules?.byIndex[ruleIndex] : undefined) ?? {}
      const properties = record(rule.properties)
      const score = num(properties['security-severity'])
      const level = text(value.level, 20) ?? text(record(rule.defaultConfiguration).level, 20) ?? 'warning'
      const severity = score !== undefined ? fromScore(score) : LEVEL[level]
      if (!severity) notes.warn(where, `rule ${ruleId}: level ${JSON.stringify(level)} read as medium`)
      const target = targetOf(value)
      if (!target) {
        notes.skip(where, `rule ${ruleId}: the result has no location`)
        continue
      }
      const message = messageText(record(value.message), rule)
      const tags = texts(properties.tags, 30)
      findings.push({
        ruleId,
        title: text(record(rule.shortDescription).text, 500) ?? text(rule.name, 500) ?? message?.slice(0, 200) ?? ruleId,
        severity: severity ?? 'medium',
        target,
        cwe: cweIds(tags.map((tag) => /cwe-?(\d+)/i.exec(tag)?.[1] ?? '')),
        tags,
        description: text(record(rule.fullDescription).text) ?? text(record(rule.fullDescription).markdown),
        remediation: text(record(rule.help).text) ?? text(record(rule.help).markdown),
        references: texts(rule.helpUri),
        evidence: message ? text(message, PARSE_LIMITS.maxEvidenceChars) : undefined,
        raw: {
          run,
          ...boundedRaw(value, ['ruleId', 'ruleIndex', 'message', 'level']),
          ...(score !== undefined ? { securitySeverity: score } : {}),
          level,
        },
      })
    }
    const driver = record(record(tools.get(0)).driver)
    const scan: ParsedScan = {
      format: 'sarif',
      tool: { name: text(driver.name, 200) ?? 'SARIF', version: text(driver.semanticVersion, 100) ?? text(driver.version, 100) ?? '' },
      startedAt: null,
      finishedAt: null,
      targets: [],
      findings,
      assets: [],
      statistics: {
        runs: tools.size,
        results: pending.length,
        findings: findings.length,
        skipped: notes.skipped,
        notesNotKept: notes.dropped,
      },
      notes: notes.kept,
    }
    return scan
  },
}
