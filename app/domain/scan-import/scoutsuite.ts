// ScoutSuite's results (`scoutsuite-report/scoutsuite-results/scoutsuite_results_<account>.js`, a
// JavaScript assignment `scoutsuite_results = {...}`, or the same object as plain JSON): the
// provider (AWS, Azure, GCP, ...), the account, the run's time and version, and per service the
// findings of the ruleset, each with its level, description, rationale, remediation, references,
// compliance and the paths of the items it flagged. One finding per rule and flagged item (rule id
// scoutsuite:<rule>), the region and the resource read from the item's path
// ("ec2.regions.eu-west-1.vpcs.vpc-1.security_groups.sg-2.rules.ingress.default_with_rules");
// danger is high, warning medium. The resources the report holds besides (most of the file) are
// streamed past; only the findings are built.
import type { Severity } from '../template-vocabulary.ts'
import { isRecord, list, Notes, num, record, tally, text, texts, underLimit } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { fromOffsetDateText, unique } from './scan-collector.ts'

const LABEL = 'ScoutSuite results'

const LEVELS: Record<string, Severity> = { danger: 'high', warning: 'medium', info: 'info' }

export const scoutsuiteRuleId = (rule: string) => `scoutsuite:${rule}`

/** The JSON of a results file: the `scoutsuite_results =` before it and a `;` after it left out, line numbers kept. */
export async function* scoutsuiteJson(source: AsyncIterable<string>): AsyncIterable<string> {
  let started = false
  let head = ''
  let held = ''
  for await (const chunk of source) {
    let text = chunk
    if (!started) {
      head += text
      const body = /^\uFEFF?\s*(?:(?:var\s+)?scoutsuite_results\s*=)?/.exec(head)
      const rest = head.slice(body?.[0].length ?? 0)
      // Wait for the first character after the assignment (or for enough text to know there is none).
      const partial = /^\uFEFF?\s*(?:var\s+)?[\w\s]*$/.test(head) && !/[{[]/.test(head)
      if ((!rest.trimStart() || partial) && head.length < 1_024) continue
      started = true
      text = (body?.[0] ?? '').replace(/[^\n]/g, '') + rest
    }
    text = held + text
    const tail = /[;\s]*$/.exec(text)?.[0] ?? ''
    held = tail
    const out = text.slice(0, text.length - tail.length)
    if (out) yield out
  }
  if (!started && head) yield head
  else if (held) yield held.replace(/;/g, '')
}

/** The region and resource of a flagged item's path, its service and the rule's id suffix taken off. */
function place(item: string, service: string, suffix: string | undefined): { region: string; resource: string } {
  let path = item
  if (suffix && path.endsWith(`.${suffix}`)) path = path.slice(0, -suffix.length - 1)
  const parts = path.split('.')
  const regionAt = parts.indexOf('regions')
  const region = regionAt >= 0 ? (parts[regionAt + 1] ?? '') : ''
  const withoutService = parts[0] === service ? parts.slice(1) : parts
  return { region, resource: withoutService.join('.') || item }
}

export const scoutsuiteParser: ScanParser = {
  format: 'scoutsuite_js',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (!/^\uFEFF?\s*(?:(?:var\s+)?scoutsuite_results\s*=\s*)?\{/.test(head)) return false
    return /"last_run"\s*:/.test(head) && /"ruleset_(?:name|about)"\s*:/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = { rules: 0, flaggedRules: 0, flaggedItems: 0 }
    const header: Record<string, unknown> = {}
    const pending: { service: string; rule: string; value: Record<string, unknown>; path: string }[] = []
    const paths = [
      '$.account_id',
      '$.provider_code',
      '$.provider_name',
      '$.partition',
      '$.environment',
      '$.last_run.time',
      '$.last_run.version',
      '$.last_run.ruleset_name',
      '$.services.*.findings.*',
    ]
    for await (const { value, path } of streamJsonValues(scoutsuiteJson(input), { formatLabel: LABEL, paths })) {
      const finding = /^\$\.services(?:\.([\w-]+)|\["(.+?)"\])\.findings(?:\.([\w-]+)|\["(.+?)"\])$/.exec(path)
      if (!finding) {
        header[path.slice(2)] = value
        continue
      }
      statistics.rules!++
      if (!isRecord(value)) {
        notes.skip(path, 'the finding is not an object')
        continue
      }
      if ((num(value.flagged_items) ?? list(value.items).length) === 0) continue
      // The account may come after the services (ScoutSuite sorts keys): findings are built at the end.
      pending.push({ service: finding[1] ?? finding[2] ?? '', rule: finding[3] ?? finding[4] ?? '', value, path })
    }
    if (header.account_id === undefined && header.provider_code === undefined && statistics.rules === 0)
      throw new ScanParseError(LABEL, 'file', 'no account, provider or services: not a ScoutSuite results file')

    const provider = text(header.provider_code, 40) ?? 'unknown'
    const account = text(header.account_id, 300) ?? ''
    for (const { service, rule, value, path } of pending) {
      statistics.flaggedRules!++
      const level = text(value.level, 20)?.toLowerCase() ?? ''
      const severity =
        LEVELS[level] ?? (notes.warn(path, `${rule}: level ${JSON.stringify(value.level ?? null)} read as info`), 'info' as const)
      const compliance = list(value.compliance)
        .map(record)
        .map((c) => [text(c.name, 200), text(c.version, 20), text(c.reference, 40)].filter(Boolean).join(' '))
        .filter(Boolean)
      const references = texts(value.references, 20).filter((r) => /^https?:\/\//i.test(r))
      const description = text(value.description, 500) ?? rule
      const serviceName = text(value.service, 100) ?? service
      const suffix = text(value.id_suffix, 500)
      for (const itemPath of texts(value.items, PARSE_LIMITS.findings)) {
        statistics.flaggedItems!++
        if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) break
        tally(statistics, `severity:${severity}`)
        const { region, resource } = place(itemPath, service, suffix)
        findings.push({
          ruleId: scoutsuiteRuleId(rule),
          title: bounded(description, 500),
          severity,
          target: { kind: 'cloud', provider, account, region, cloudService: serviceName, resource: bounded(resource, 2_048) },
          ...(compliance.length > 0 ? { tags: unique(compliance).slice(0, 20) } : {}),
          description: bounded([description, text(value.rationale)].filter(Boolean).join('\n\n')),
          ...(text(value.remediation) ? { remediation: text(value.remediation) } : {}),
          ...(references.length > 0 ? { references } : {}),
          evidence: bounded(`${text(value.dashboard_name, 100) ?? 'Item'} flagged: ${itemPath}`, 2_000),
          raw: fitRaw({
            rule,
            level: level || null,
            item: bounded(itemPath, 2_048),
            ...(text(value.path, 500) ? { path: text(value.path, 500) } : {}),
            ...(num(value.checked_items) !== undefined ? { checkedItems: num(value.checked_items) } : {}),
            ...(num(value.flagged_items) !== undefined ? { flaggedItems: num(value.flagged_items) } : {}),
          }),
        })
      }
    }

    const scan: ParsedScan = {
      format: 'scoutsuite_js',
      tool: { name: 'ScoutSuite', version: text(header['last_run.version'], 40) ?? '' },
      startedAt: null,
      finishedAt: fromOffsetDateText(header['last_run.time']),
      targets: account ? [account] : [],
      findings,
      assets: account
        ? [
            {
              type: 'cloud_resource',
              value: account,
              cloud: { account, region: '', cloudService: text(header.provider_name, 100) ?? provider },
              raw: fitRaw({
                provider,
                ...(text(header.partition, 40) ? { partition: text(header.partition, 40) } : {}),
                ...(text(header.environment, 100) ? { environment: text(header.environment, 100) } : {}),
                ...(text(header['last_run.ruleset_name'], 100) ? { ruleset: text(header['last_run.ruleset_name'], 100) } : {}),
              }),
            },
          ]
        : [],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
