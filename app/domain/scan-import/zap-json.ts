// OWASP ZAP's traditional JSON report (and its "plus" variant with requests and responses):
// site[].alerts[].instances[], one finding per instance. Alerts are read one at a time, so a large
// report never needs all its alerts in memory.
import type { Severity } from '../template-vocabulary.ts'
import {
  boundedRaw,
  cweIds,
  epochMs,
  isRecord,
  list,
  Notes,
  record,
  referenceLines,
  stripHtml,
  tally,
  text,
  underLimit,
  type JsonRecord,
} from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'

const LABEL = 'OWASP ZAP JSON'

/** ZAP's risk codes; ZAP has no critical. */
const RISK: Record<string, Severity> = { '3': 'high', '2': 'medium', '1': 'low', '0': 'info' }

const ALERT_FIELDS = ['pluginid', 'alert', 'name', 'riskcode', 'desc', 'instances', 'solution', 'reference', 'cweid', 'tags']
const INSTANCE_FIELDS = ['uri', 'method', 'param', 'evidence', 'request-header', 'request-body', 'response-header', 'response-body']

function httpMessage(header: unknown, body: unknown): string | undefined {
  const head = typeof header === 'string' ? header : ''
  const rest = typeof body === 'string' ? body : ''
  return head || rest ? bounded(`${head}${rest}`, PARSE_LIMITS.maxEvidenceChars) : undefined
}

/** ZAP writes "@generated" in the scanning machine's local time without a zone: read as UTC. */
function generatedAt(value: unknown): number | null {
  const t = text(value)
  if (!t) return null
  return /(Z|GMT|UTC|[+-]\d{2}:?\d{2})$/.test(t) ? epochMs(t) : epochMs(`${t} UTC`)
}

export const zapJsonParser: ScanParser = {
  format: 'zap_json',
  label: LABEL,
  services: ['dast'],
  sniff(head) {
    if (!/^\s*\{/.test(head)) return false
    return /"@programName"\s*:\s*"(OWASP )?ZAP"/.test(head) || /"site"\s*:\s*\[\s*\{\s*"@name"\s*:/.test(head)
  },
  async parse(source) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const targets = new Set<string>()
    const statistics = { sites: 0, alerts: 0, instances: 0 }
    const risks: Record<string, number> = {}
    const header: JsonRecord = {}
    let currentSite: JsonRecord = {}
    const paths = [
      '$.@programName',
      '$.@version',
      '$.@generated',
      '$.created',
      '$.site.*.@name',
      '$.site.*.@host',
      '$.site.*.@port',
      '$.site.*.alerts.*',
    ]
    let sawZap = false
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      const siteField = /^\$\.site\[(\d+)\]\.(@\w+)$/.exec(path)
      const siteKey = siteField?.[2]
      if (siteKey) {
        if (siteKey === '@name') {
          statistics.sites++
          currentSite = {}
          const name = text(value)
          if (name) targets.add(name)
        }
        currentSite[siteKey] = value
        sawZap = true
        continue
      }
      if (!path.includes('.alerts[')) {
        header[path.slice(2)] = value
        sawZap ||= path === '$.@programName'
        continue
      }
      sawZap = true
      statistics.alerts++
      if (!isRecord(value)) {
        notes.skip(path, 'the alert is not an object')
        continue
      }
      const ruleId = text(value.pluginid, 64)
      const severity = RISK[text(value.riskcode) ?? '']
      if (!ruleId || !severity) {
        notes.skip(path, !ruleId ? 'the alert has no pluginid' : `unknown riskcode ${JSON.stringify(value.riskcode)}`)
        continue
      }
      tally(risks, `risk${text(value.riskcode)}`)
      if (text(value.confidence) === '0') notes.warn(path, `alert ${ruleId} is marked as a false positive in ZAP`)
      const site = text(currentSite['@name'])
      const shared = {
        ruleId,
        title: text(value.alert, 500) ?? text(value.name, 500) ?? `ZAP alert ${ruleId}`,
        severity,
        cwe: cweIds(value.cweid),
        tags: list(value.tags)
          .map((tag) => text(record(tag).tag, 200))
          .filter((tag): tag is string => !!tag),
        description: stripHtml(text(value.desc)),
        remediation: stripHtml(text(value.solution)),
        references: referenceLines(text(value.reference)),
      }
      const alertRaw = boundedRaw(value, ALERT_FIELDS)
      const instances = list(value.instances)
      if (instances.length === 0) notes.warn(path, `alert ${ruleId} has no instances`)
      instances.forEach((entry, index) => {
        statistics.instances++
        const instance = record(entry)
        const url = text(instance.uri) ?? site
        if (!url) {
          notes.skip(`${path}.instances[${index}]`, 'the instance has no uri')
          return
        }
        if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, `${path}.instances[${index}]`, 'findings')) return
        findings.push({
          ...shared,
          target: { kind: 'url', url, method: text(instance.method, 16)?.toUpperCase(), parameter: text(instance.param, 500) },
          evidence: text(instance.evidence, PARSE_LIMITS.maxEvidenceChars),
          request: httpMessage(instance['request-header'], instance['request-body']),
          response: httpMessage(instance['response-header'], instance['response-body']),
          raw: { ...alertRaw, site, instance: boundedRaw(instance, INSTANCE_FIELDS) },
        })
      })
    }
    if (!sawZap) throw new ScanParseError(LABEL, '$', 'no ZAP report: neither "@programName" nor "site" found')
    const finishedAt = epochMs(header.created) ?? generatedAt(header['@generated'])
    const scan: ParsedScan = {
      format: 'zap_json',
      tool: { name: 'ZAP', version: text(header['@version'], 100) ?? '' },
      startedAt: null,
      finishedAt,
      targets: [...targets],
      findings,
      assets: [],
      statistics: { ...statistics, ...risks, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
