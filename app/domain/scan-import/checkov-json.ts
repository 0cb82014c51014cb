// Checkov's JSON output (`-o json`, Checkov 1 to 3): one report object per framework (check_type,
// results.{passed,failed,skipped}_checks, summary), or an array of them when several frameworks ran,
// or a bare summary when there was nothing to scan. One finding per failed check and resource, the
// check id its rule, the guideline its reference, the file and line range where it is; passed and
// skipped checks are counted, not imported. Checks are read one at a time.
import type { Severity } from '../template-vocabulary.ts'
import { int, isRecord, list, Notes, record, tally, text, texts, underLimit, type JsonRecord } from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'

const LABEL = 'Checkov JSON'

const SEVERITY: Record<string, Severity> = { CRITICAL: 'critical', HIGH: 'high', MEDIUM: 'medium', LOW: 'low', INFO: 'info' }
/** Checkov rates checks only with a platform key; an unrated failed check reads as medium. */
const UNRATED: Severity = 'medium'
/** Code lines kept as a finding's evidence. */
const CODE_LINES = 40

const HEADER_FIELDS = ['check_type', 'repo_id', 'url', 'summary.checkov_version', 'summary.resource_count']
const CHECK_LISTS = ['passed_checks', 'failed_checks', 'skipped_checks', 'parsing_errors']

/** "$[1].results.failed_checks[3]" → report 1 and its list; "$.results.passed_checks[0]" → report 0. */
const CHECK_PATH = /^\$(?:\[(\d+)\])?\.results\.(\w+)\[\d+\]$/
const HEADER_PATH = /^\$(?:\[(\d+)\])?\.(.+)$/

/** "1-16" from Checkov's [1, 16]; [0, 0] (a whole file, as for Dockerfiles) gives nothing. */
function lineRange(value: unknown): string | undefined {
  const [from, to] = list(value).map((n) => int(n, 0, 100_000_000))
  if (!from) return undefined
  return to && to !== from ? `${from}-${to}` : String(from)
}

/** The code Checkov quotes ([[line, text], ...]) as numbered lines, bounded. */
function codeBlock(value: unknown): string | undefined {
  const lines = list(value)
    .slice(0, CODE_LINES)
    .map((entry) => {
      const [line, code] = list(entry)
      return typeof code === 'string' ? `${int(line) ?? ''}: ${code.replace(/\n$/, '')}` : undefined
    })
    .filter((line): line is string => line !== undefined)
  if (!lines.length) return undefined
  if (list(value).length > CODE_LINES) lines.push('…')
  return bounded(lines.join('\n'), PARSE_LIMITS.maxEvidenceChars)
}

export const checkovJsonParser: ScanParser = {
  format: 'checkov_json',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (!/^\s*[[{]/.test(head)) return false
    const report = /^\s*\[?\s*\{\s*"check_type"\s*:\s*"[^"]*"\s*,\s*"results"\s*:\s*\{/.test(head)
    const bareSummary = /^\s*\{\s*"passed"\s*:\s*\d+\s*,\s*"failed"\s*:\s*\d+\s*,[^{}[\]]*"checkov_version"\s*:/.test(head)
    return report || bareSummary || (/"check_type"\s*:/.test(head) && /"check_id"\s*:\s*"CKV2?_/.test(head))
  },
  async parse(input) {
    const notes = new Notes()
    const statistics: Record<string, number> = { reports: 0, passed: 0, failed: 0, skippedChecks: 0, parsingErrors: 0, unrated: 0 }
    const findings: ParsedFinding[] = []
    /** Each finding's report, whose check_type and repository may come after its checks. */
    const findingReport: number[] = []
    const headers = new Map<number, JsonRecord>()
    const seen = new Set<string>()
    const { first, source } = await peekSource(input)
    if (first !== '[' && first !== '{') throw new ScanParseError(LABEL, 'line 1', 'neither a report object nor an array of reports')
    const prefix = first === '[' ? '$.*' : '$'
    const paths = [
      ...HEADER_FIELDS.map((field) => `${prefix}.${field}`),
      ...CHECK_LISTS.map((name) => `${prefix}.results.${name}.*`),
      ...(first === '{' ? ['$.checkov_version', '$.passed', '$.failed'] : []),
    ]
    const header = (index: number) => headers.get(index) ?? headers.set(index, {}).get(index)!
    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      const check = CHECK_PATH.exec(path)
      if (!check) {
        const [, index, field] = HEADER_PATH.exec(path) ?? []
        if (field) header(Number(index ?? 0))[field] = value
        continue
      }
      const report = Number(check[1] ?? 0)
      header(report)
      if (check[2] === 'parsing_errors') {
        tally(statistics, 'parsingErrors')
        notes.warn(path, `Checkov could not parse ${text(value, 1_000) ?? 'a file'}`)
        continue
      }
      if (check[2] === 'passed_checks') tally(statistics, 'passed')
      if (check[2] === 'skipped_checks') tally(statistics, 'skippedChecks')
      if (check[2] !== 'failed_checks') continue
      tally(statistics, 'failed')
      if (!isRecord(value)) {
        notes.skip(path, 'the check is not an object')
        continue
      }
      const id = text(value.check_id, 200)
      const resource = text(value.resource, 2_000)
      const file = text(value.repo_file_path, 2_000) ?? text(value.file_path, 2_000)
      if (!id || (!resource && !file)) {
        notes.skip(path, `${id ?? 'a failed check'}: no check id, resource or file`)
        continue
      }
      const lines = lineRange(value.file_line_range)
      const key = [report, id, file ?? '', resource ?? '', lines ?? ''].join('\u001f')
      if (seen.has(key)) {
        tally(statistics, 'duplicateChecks')
        continue
      }
      seen.add(key)
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) continue
      const severityText = text(value.severity, 20)?.toUpperCase()
      const severity = severityText ? SEVERITY[severityText] : undefined
      if (!severity) tally(statistics, 'unrated')
      const name = text(value.check_name, 500)
      const location = file ? (lines ? `${file}:${lines}` : file) : undefined
      const evaluated = texts(record(value.check_result).evaluated_keys, 20)
      const benchmarks = Object.entries(record(value.benchmarks))
        .slice(0, 20)
        .map(([benchmark, items]) => {
          const sections = texts(
            list(items).map((item) => record(item).name),
            20,
          )
          return sections.length ? `${benchmark} ${sections.join(', ')}` : benchmark
        })
      findingReport.push(report)
      findings.push({
        ruleId: id,
        title: name ? `${id}: ${name}` : id,
        severity: severity ?? UNRATED,
        // The framework and repository are known once the whole report is read.
        target: {
          kind: 'cloud',
          provider: 'iac',
          account: '',
          region: '',
          cloudService: '',
          resource: bounded([file, resource && resource !== file ? resource : undefined].filter(Boolean).join(' › '), 2_048),
        },
        ...(benchmarks.length ? { tags: benchmarks } : {}),
        description: text(value.description) ?? text(value.short_description) ?? name,
        references: texts([value.guideline], 5),
        evidence: [location && `at ${location}`, codeBlock(value.code_block)].filter(Boolean).join('\n') || undefined,
        raw: fitRaw({
          ...(location ? { location } : {}),
          ...(file ? { file } : {}),
          ...(lines ? { lines } : {}),
          ...(resource ? { resource } : {}),
          ...(text(value.bc_check_id) ? { bcCheckId: text(value.bc_check_id, 200) } : {}),
          ...(text(value.check_class) ? { checkClass: text(value.check_class, 500) } : {}),
          ...(text(value.bc_category) ? { category: text(value.bc_category, 200) } : {}),
          ...(text(value.resource_address) ? { resourceAddress: text(value.resource_address, 2_000) } : {}),
          ...(evaluated.length ? { evaluatedKeys: evaluated } : {}),
          severity: severityText ?? null,
        }),
      })
    }

    if (headers.size === 0) throw new ScanParseError(LABEL, 'file', 'no check_type, checks or summary: not a Checkov report')
    statistics.reports = first === '[' ? headers.size : 1
    findings.forEach((finding, i) => {
      const report = headers.get(findingReport[i] ?? 0) ?? {}
      if (finding.target.kind === 'cloud')
        Object.assign(finding.target, {
          account: bounded(text(report.repo_id, 2_048) ?? '', 2_048),
          cloudService: text(report.check_type, 100) ?? 'unknown',
        })
    })
    const frameworks = [...new Set([...headers.values()].map((h) => text(h.check_type, 100)).filter(Boolean))] as string[]
    const repositories = [...new Set([...headers.values()].map((h) => text(h.repo_id, 2_048)).filter(Boolean))] as string[]
    const version = [...headers.values()].map((h) => text(h['summary.checkov_version'] ?? h.checkov_version, 40)).find(Boolean)
    for (const framework of frameworks) tally(statistics, `framework:${framework}`, 0)
    for (const finding of findings) if (finding.target.kind === 'cloud') tally(statistics, `framework:${finding.target.cloudService}`)
    const scan: ParsedScan = {
      format: 'checkov_json',
      tool: { name: 'Checkov', version: version ?? '' },
      startedAt: null,
      finishedAt: null,
      targets: repositories.length ? repositories : frameworks,
      findings,
      assets: [],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
