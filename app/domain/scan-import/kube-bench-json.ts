// kube-bench's JSON output (`kube-bench --json`, or `--outputfile` with `--json`): the CIS
// Kubernetes Benchmark (or a managed variant: EKS, GKE, AKS, OpenShift) checked on one node, as
// {"Controls": [...], "Totals": {...}} (kube-bench 0.4 and later) or a bare array of controls
// (earlier, and `kube-bench run --targets` piped through jq). Each control is one node type
// (master, etcd, controlplane, node, policies) with its sections of results. A FAIL is a finding
// (medium when the check is scored, low when it is not), a WARN (a check kube-bench cannot decide,
// to be made by hand) an informational finding tagged manual-check; PASS and INFO are counted. The
// rule id names the benchmark and the check, kube-bench:<benchmark>:<number>, since the numbers
// change meaning between benchmark versions. Controls are read one at a time.
import type { Severity } from '../template-vocabulary.ts'
import { isRecord, list, Notes, record, tally, text, underLimit, type JsonRecord } from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { unique } from './scan-collector.ts'

const LABEL = 'kube-bench JSON'

/** "1.6" is CIS's 1.6; "cis-1.8", "eks-1.2.0" and "gke-1.2.0" say so themselves. */
export function benchmarkOf(version: string | undefined): string {
  const v = (version ?? '').trim().toLowerCase()
  if (!v) return 'cis'
  return /^\d/.test(v) ? `cis-${v}` : v
}

export const kubeBenchRuleId = (benchmark: string, testNumber: string) => `kube-bench:${benchmark}:${testNumber}`

const NODE_TYPES: Record<string, string> = {
  master: 'Control plane node',
  controlplane: 'Control plane',
  etcd: 'etcd',
  node: 'Worker node',
  policies: 'Policies',
  managedservices: 'Managed services',
}

export const kubeBenchJsonParser: ScanParser = {
  format: 'kube_bench_json',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (!/"test_number"\s*:/.test(head) || !/"node_type"\s*:/.test(head)) return false
    return /^\s*\{\s*"Controls"\s*:\s*\[/.test(head) || /^\s*\[\s*\{\s*"id"\s*:/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = { controls: 0, checks: 0 }
    const targets: string[] = []
    const benchmarks: string[] = []
    let totals: JsonRecord | null = null
    let controls = 0

    const readControl = (value: unknown, path: string) => {
      controls++
      statistics.controls!++
      if (!isRecord(value)) {
        notes.skip(path, 'the control is not an object')
        return
      }
      const benchmark = benchmarkOf(text(value.version, 40))
      benchmarks.push(benchmark)
      const nodeType = text(value.node_type, 40) ?? 'unknown'
      targets.push(nodeType)
      const controlText = text(value.text, 300)
      for (const [s, section] of list(value.tests).map(record).entries()) {
        for (const [r, result] of list(section.results).map(record).entries()) {
          const where = `${path}.tests[${s}].results[${r}]`
          statistics.checks!++
          const status = (text(result.status, 10) ?? '').toUpperCase()
          tally(statistics, `status:${status.toLowerCase() || 'none'}`)
          if (status !== 'FAIL' && status !== 'WARN') continue
          const number = text(result.test_number, 40)
          if (!number) {
            notes.skip(where, 'a result without a test_number')
            continue
          }
          if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) return
          const scored = result.scored === true
          const severity: Severity = status === 'WARN' ? 'info' : scored ? 'medium' : 'low'
          tally(statistics, `severity:${severity}`)
          const description = text(result.test_desc, 1_000) ?? number
          const evidence = [
            text(result.reason, 2_000) && `Reason: ${text(result.reason, 2_000)}`,
            text(result.actual_value, 2_000) && `Actual value: ${text(result.actual_value, 2_000)}`,
            text(result.expected_result, 1_000) && `Expected: ${text(result.expected_result, 1_000)}`,
            text(result.audit, 2_000) && `Audit: ${text(result.audit, 2_000)}`,
            text(result.AuditConfig, 1_000) && `Audit config: ${text(result.AuditConfig, 1_000)}`,
          ].filter(Boolean)
          findings.push({
            ruleId: kubeBenchRuleId(benchmark, number),
            title: bounded(`${number} ${description}`, 500),
            severity,
            target: {
              kind: 'cloud',
              provider: 'kubernetes',
              account: '',
              region: '',
              cloudService: NODE_TYPES[nodeType] ?? nodeType,
              resource: nodeType,
            },
            tags: [benchmark, ...(status === 'WARN' ? ['manual-check'] : []), ...(scored ? [] : ['not-scored'])],
            description: bounded(
              [
                description,
                text(section.desc, 300) &&
                  `Section ${text(section.section, 20) ?? ''} ${text(section.desc, 300)}`.replace(/\s+/g, ' ').trim(),
                controlText && `${text(value.id, 20) ?? ''} ${controlText}`.trim(),
              ]
                .filter(Boolean)
                .join('\n\n'),
            ),
            ...(text(result.remediation) ? { remediation: text(result.remediation) } : {}),
            ...(evidence.length > 0 ? { evidence: bounded(evidence.join('\n'), PARSE_LIMITS.maxEvidenceChars) } : {}),
            raw: fitRaw({
              status,
              scored,
              benchmark,
              nodeType,
              section: text(section.section, 20) ?? null,
              ...(text(result.type, 40) ? { type: text(result.type, 40) } : {}),
              ...(text(value.detected_version, 40) ? { kubernetesVersion: text(value.detected_version, 40) } : {}),
              ...(result.IsMultiple === true ? { isMultiple: true } : {}),
            }),
          })
        }
      }
    }

    const { first, source } = await peekSource(input)
    if (first && first !== '{' && first !== '[')
      throw new ScanParseError(LABEL, 'line 1', `the file starts with "${first}", not a JSON object or array`)
    const paths = first === '[' ? ['$.*'] : ['$.Controls.*', '$.Totals']
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      if (path === '$.Totals') totals = record(value)
      else readControl(value, path)
    }
    if (controls === 0 && totals === null) throw new ScanParseError(LABEL, 'file', 'no Controls: not a kube-bench report')
    for (const key of ['total_pass', 'total_fail', 'total_warn', 'total_info'] as const) {
      const figure = totals?.[key]
      if (typeof figure === 'number') statistics[`totals:${key.slice(6)}`] = figure
    }
    const scan: ParsedScan = {
      format: 'kube_bench_json',
      tool: { name: 'kube-bench', version: '' },
      startedAt: null,
      finishedAt: null,
      targets: unique(targets),
      findings,
      assets: unique(targets).map((nodeType) => ({
        type: 'cloud_resource' as const,
        value: nodeType,
        cloud: { account: '', region: '', cloudService: NODE_TYPES[nodeType] ?? nodeType },
        raw: { benchmarks: unique(benchmarks) },
      })),
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
