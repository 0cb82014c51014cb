// Wapiti's XML report (`-f xml`): `<report type="security">` with report_infos, then
// vulnerabilities, anomalies and additionals, each category with its description, solution,
// references and entries of method, path, level, parameter, info and request (Wapiti 2.3 to 3.x),
// and the older `<generatedBy>` with `<vulnerabilityTypeList>` of `<vulnerabilityType name>`
// holding `<vulnerability level>` entries with a full URL. The same rules as Wapiti's JSON: the
// category is the rule id, so the same scan exported as XML and as JSON gives the same findings; a
// missing security header is its own finding. Levels differ by version: Wapiti 2 wrote 1 for high,
// 2 medium and 3 low; Wapiti 3 writes 4 critical to 0 informational. An entry repeated at one place
// is one finding. Each category is read on its own.
import type { Severity } from '../template-vocabulary.ts'
import { cweIds, Notes, tally, underLimit } from './json-fields.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { fromDateText, unique } from './scan-collector.ts'
import { WAPITI_LEVELS, wapitiHeaderNamed } from './wapiti-json.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Wapiti XML'

/** Wapiti 2's levels (Vulnerability.HIGH_LEVEL_VULNERABILITY = "1" ... LOW = "3"). */
const WAPITI_2_LEVELS: Record<number, Severity> = { 1: 'high', 2: 'medium', 3: 'low' }

type Section = 'vulnerabilities' | 'anomalies' | 'additionals'

/** The origin of the URL a curl command requests: curl "http://host/path?q" ... */
function originOfCurl(curl: string): string {
  const url = /curl\s+["']?(https?:\/\/[^"'\s]+)/i.exec(curl)?.[1]
  try {
    return url ? new URL(url).origin : ''
  } catch {
    return ''
  }
}

export const wapitiXmlParser: ScanParser = {
  format: 'wapiti_xml',
  label: LABEL,
  services: ['dast'],
  sniff(head) {
    const root = xmlRootTag(head)
    if (root?.name !== 'report') return false
    return (
      /<info name="generatorName">\s*wapiti/i.test(head) ||
      /<info name="generatorVersion">\s*Wapiti/i.test(head) ||
      /<generatedBy id="Wapiti/i.test(head)
    )
  },
  async parse(source) {
    const notes = new Notes()
    const infos: Record<string, string> = {}
    const categories: { section: Section; node: XmlNode }[] = []
    let version2 = false

    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name !== 'report')
          throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not Wapiti's <report>`)
      },
      collect: {
        'report/report_infos/info': (info) => {
          if (info.attributes.name) infos[info.attributes.name] = bounded(textOf(info), 2_000)
        },
        'report/generatedBy': (node) => {
          version2 = true
          infos.generatorVersion = bounded(node.attributes.id ?? '', 100)
        },
        'report/vulnerabilities/vulnerability': (node) => categories.push({ section: 'vulnerabilities', node }),
        'report/anomalies/anomaly': (node) => categories.push({ section: 'anomalies', node }),
        'report/additionals/additional': (node) => categories.push({ section: 'additionals', node }),
        'report/vulnerabilityTypeList/vulnerabilityType': (node) => {
          version2 = true
          categories.push({ section: 'vulnerabilities', node })
        },
      },
    })
    if (!/wapiti/i.test(`${infos.generatorName ?? ''} ${infos.generatorVersion ?? ''}`))
      throw new ScanParseError(LABEL, 'file', 'no Wapiti report: no generator names Wapiti')

    const major = Number(/(\d+)\./.exec(infos.generatorVersion ?? '')?.[1] ?? 3)
    const levels = version2 || major <= 2 ? WAPITI_2_LEVELS : WAPITI_LEVELS
    const target = infos.target ?? ''
    let origin = ''
    try {
      origin = new URL(target).origin
    } catch {
      // Wapiti 2 wrote no target: each entry's origin is its curl command's URL.
      if (target && !version2) throw new ScanParseError(LABEL, 'file', `the target ${JSON.stringify(target.slice(0, 200))} is not a URL`)
    }
    const statistics: Record<string, number> = { vulnerabilities: 0, anomalies: 0, additionals: 0, duplicateEntries: 0 }
    const findings: ParsedFinding[] = []
    const seen = new Set<string>()
    const targets: string[] = target ? [target] : []
    for (const { section, node } of categories) {
      const category = bounded(node.attributes.name?.trim() ?? '', 200)
      if (!category) {
        notes.skip(`line ${node.line}`, `a <${node.name}> without a name`)
        continue
      }
      const references = childrenNamed(child(node, 'references'), 'reference').map((r) => ({
        title: textOf(r, 'title'),
        url: textOf(r, 'url'),
      }))
      const entries = version2
        ? childrenNamed(child(node, 'vulnerabilityList'), 'vulnerability')
        : childrenNamed(child(node, 'entries'), 'entry')
      for (const entry of entries) {
        const where = `line ${entry.line}`
        statistics[section] = (statistics[section] ?? 0) + 1
        const level = numberOf(entry.attributes.level ?? textOf(entry, 'level'))
        const severity = level === undefined ? undefined : levels[level]
        if (!severity) {
          notes.skip(where, `unknown level ${JSON.stringify(entry.attributes.level ?? textOf(entry, 'level'))}`)
          continue
        }
        let url: string
        if (version2) {
          url = textOf(entry, 'url')
          try {
            const parsed = new URL(url)
            origin ||= parsed.origin
            url = `${parsed.origin}${parsed.pathname}`
            if (!targets.includes(parsed.origin)) targets.push(parsed.origin)
          } catch {
            notes.skip(where, `${category}: the URL ${JSON.stringify(url.slice(0, 200))} is not one`)
            continue
          }
        } else {
          const path = textOf(entry, 'path') || '/'
          const base = origin || originOfCurl(textOf(entry, 'curl_command'))
          if (!base) {
            notes.skip(where, `${category}: no target and no URL in the entry`)
            continue
          }
          if (!targets.includes(base) && !target) targets.push(base)
          url = `${base}${path.startsWith('/') ? path : `/${path}`}`
        }
        const info = bounded(textOf(entry, 'info'), 2_000) || undefined
        // Old reports name the parameter with its injected value ("id=%27"): the name is the parameter.
        const parameter =
          bounded(textOf(entry, 'parameter') || textOf(entry, 'parameters').split('=')[0] || '', 500) || wapitiHeaderNamed(info)
        const method = textOf(entry, 'method').toUpperCase() || undefined
        const key = `${url}\u001f${method ?? ''}\u001f${parameter ?? ''}\u001f${category}`
        if (seen.has(key)) {
          statistics.duplicateEntries!++
          continue
        }
        seen.add(key)
        if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) break
        tally(statistics, severity)
        const request = textOf(entry, 'http_request')
        findings.push({
          ruleId: category,
          title: bounded(wapitiHeaderNamed(info) ? info! : category, 500),
          severity,
          target: { kind: 'url', url: bounded(url, 2_048), ...(method ? { method } : {}), ...(parameter ? { parameter } : {}) },
          cwe: cweIds(references.flatMap((r) => /CWE-(\d+)/i.exec(r.title)?.[1] ?? [])),
          description: bounded(textOf(node, 'description')) || undefined,
          remediation: bounded(textOf(node, 'solution')) || undefined,
          references: unique(references.filter((r) => r.url).map((r) => bounded(r.title ? `${r.title}: ${r.url}` : r.url, 2_048))).slice(
            0,
            50,
          ),
          evidence: info,
          ...(request ? { request: bounded(request, PARSE_LIMITS.maxEvidenceChars) } : {}),
          raw: fitRaw({
            section,
            ...(textOf(entry, 'curl_command') ? { curl: bounded(textOf(entry, 'curl_command'), 4_000) } : {}),
            ...(level !== undefined ? { level } : {}),
          }),
        })
      }
    }

    const scan: ParsedScan = {
      format: 'wapiti_xml',
      tool: { name: 'Wapiti', version: (infos.generatorVersion ?? '').replace(/^Wapiti\s*/i, '') },
      startedAt: null,
      finishedAt: fromDateText(infos.dateOfScan),
      targets,
      findings,
      assets: [],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
