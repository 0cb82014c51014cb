// Acunetix's XML export (`<ScanGroup>` of <Scan>, Acunetix 10 to 13 and Acunetix 360's "Export XML"
// of a scan): each scan's start URL, times, web server and OS, the crawler's start URL, and its
// ReportItems: the alert's name, module, severity, the affected path and parameter, the details,
// impact, description, recommendation, the request (and, in older versions, the response), CWEs,
// CVEs, CVSS 3 and 2 and references. One finding per alert, path, method and parameter (rule id
// acunetix:<alert name>), the same alert again at one place adding its details to the first; alerts
// marked false positive are counted, not imported. The host scanned is an asset. Each ReportItem is
// read on its own.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, cweIds, Notes, stripHtml, tally, underLimit } from './json-fields.ts'
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
import { unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Acunetix XML'

const SEVERITY: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  info: 'info',
  informational: 'info',
}

/** The rule id of an alert: its name, which Acunetix keeps across versions ("HTML form without CSRF protection"). */
export const acunetixRuleId = (name: string) => `acunetix:${bounded(name.trim().toLowerCase(), 200)}`

/** Acunetix's dates: "28/04/2020, 05:36:46" (day first, the scanner's clock, read as UTC). */
export function acunetixDate(value: string): number | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}),?\s+(\d{1,2}):(\d\d)(?::(\d\d))?/.exec(value.trim())
  return m ? Date.UTC(+m[3]!, +m[2]! - 1, +m[1]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0) : null
}

/** The site's origin: the crawler's start URL, else the scan's (which Acunetix writes without a scheme). */
function originOf(startUrl: string): URL | null {
  const value = startUrl.trim()
  if (!value) return null
  try {
    return new URL(/^https?:\/\//i.test(value) ? value : `http://${value}`)
  } catch {
    return null
  }
}

/** The cvss of an item: CVSS 3 (its descriptor carries the version), else CVSS 2. */
function cvssOf(item: XmlNode): ParsedFinding['cvss'] {
  for (const [name, fallback] of [
    ['CVSS3', '3.0'],
    ['CVSS', '2.0'],
  ] as const) {
    const node = child(item, name)
    const vector = textOf(node, 'Descriptor')
    const score = numberOf(textOf(node, 'Score'))
    if (!vector || score === undefined || score < 0 || score > 10) continue
    return { version: /^CVSS:(\d\.\d)\//.exec(vector)?.[1] ?? fallback, vector: bounded(vector, 256), score }
  }
  return undefined
}

export const acunetixXmlParser: ScanParser = {
  format: 'acunetix_xml',
  label: LABEL,
  services: ['dast'],
  sniff(head) {
    if (xmlRootTag(head)?.name !== 'ScanGroup') return false
    return /<Scan>/.test(head) && /<(StartURL|ReportItems|Crawler)\b/.test(head)
  },
  async parse(source) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const assets: ParsedAsset[] = []
    const targets: string[] = []
    const statistics: Record<string, number> = { scans: 0, items: 0, falsePositives: 0, duplicateItems: 0 }
    const seen = new Map<string, ParsedFinding>()
    let startedAt: number | null = null
    let finishedAt: number | null = null

    // One <Scan> at a time: its header fields arrive before its ReportItems, each read on its own,
    // so a crawl of many thousand site files is never held.
    interface ScanState {
      line: number
      fields: Record<string, string>
      crawlerStart: string
      origin: URL | null
      warned: boolean
    }
    let current: ScanState | null = null
    const SCAN_FIELDS = ['Name', 'StartURL', 'StartTime', 'FinishTime', 'Aborted', 'WebServer', 'Os', 'Technologies']

    const originOfScan = (state: ScanState) => (state.origin ??= originOf(state.crawlerStart) ?? originOf(state.fields.StartURL ?? ''))

    const finishScan = () => {
      const state = current
      current = null
      if (!state) return
      const origin = originOfScan(state)
      if (!origin) {
        notes.skip(`line ${state.line}`, 'a <Scan> without a start URL')
        return
      }
      const site = origin.origin
      targets.push(bounded(state.fields.StartURL || site, 2_048))
      const start = acunetixDate(state.fields.StartTime ?? '')
      const end = acunetixDate(state.fields.FinishTime ?? '')
      if (start !== null) startedAt = startedAt === null ? start : Math.min(startedAt, start)
      if (end !== null) finishedAt = finishedAt === null ? end : Math.max(finishedAt, end)
      if ((state.fields.Aborted ?? '').toLowerCase() === 'true')
        notes.warn(`line ${state.line}`, `the scan of ${site} was aborted: its findings may be incomplete`)
      if (!underLimit(assets.length, PARSE_LIMITS.assets, notes, `line ${state.line}`, 'assets')) return
      const port = Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80)
      const server = state.fields.WebServer ?? ''
      const os = state.fields.Os ?? ''
      const technologies = stripHtml(state.fields.Technologies)
      assets.push({
        type: 'host',
        value: bounded(origin.hostname, 2_048),
        ports: [{ port, protocol: 'tcp', service: origin.protocol === 'https:' ? 'https' : 'http' }],
        technologies: unique(
          [server && server !== 'None' ? server : '', ...(technologies ?? '').split(/\s*[\n,]\s*/)]
            .filter(Boolean)
            .map((t) => bounded(t, 200)),
        ).slice(0, 100),
        raw: {
          site,
          ...(os && os !== 'Unknown' ? { os: bounded(os, 300) } : {}),
          ...(state.fields.Name ? { scanName: bounded(state.fields.Name, 300) } : {}),
        },
      })
    }

    const readItem = (item: XmlNode) => {
      statistics.items!++
      const where = `line ${item.line}`
      const origin = current ? originOfScan(current) : null
      if (!current || !origin) {
        if (current && !current.warned) {
          current.warned = true
          notes.skip(where, 'report items of a <Scan> without a start URL')
        }
        return
      }
      const site = origin.origin
      const name = bounded(textOf(item, 'Name'), 500)
      if (!name) {
        notes.skip(where, 'a ReportItem without a name')
        return
      }
      if (textOf(item, 'IsFalsePositive').toLowerCase() === 'true') {
        statistics.falsePositives!++
        return
      }
      const affects = textOf(item, 'Affects') || '/'
      let url: string
      try {
        url = new URL(affects, `${site}/`).href
      } catch {
        url = `${site}${affects.startsWith('/') ? '' : '/'}${affects}`
      }
      const request = textOf(child(item, 'TechnicalDetails'), 'Request')
      const response = textOf(child(item, 'TechnicalDetails'), 'Response')
      const method = /^([A-Z]{3,10}) \S+ HTTP\//.exec(request)?.[1]
      const parameterText = textOf(item, 'Parameter')
      const parameter = parameterText && parameterText !== '<empty>' ? bounded(parameterText, 500) : undefined
      const ruleId = acunetixRuleId(name)
      const details = stripHtml(textOf(item, 'Details'))
      const key = `${url}\u001f${method ?? ''}\u001f${parameter ?? ''}\u001f${ruleId}`
      const same = seen.get(key)
      if (same) {
        statistics.duplicateItems!++
        keepRepeatText(same, 'moreDetails', details)
        return
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) return
      const severityText = textOf(item, 'Severity').toLowerCase()
      const severity =
        SEVERITY[severityText] ??
        (notes.warn(where, `${name}: severity ${JSON.stringify(severityText || null)} read as info`), 'info' as const)
      tally(statistics, `severity:${severity}`)
      const cwe = cweIds(childrenNamed(child(item, 'CWEList'), 'CWE').map((c) => c.attributes.id || textOf(c)))
      const cve = cveIds(
        childrenNamed(child(item, 'CVEList'), 'CVE').map((c) => textOf(c) || textOf(c, 'Id')),
        100,
      )
      const references = unique(
        childrenNamed(child(item, 'References'), 'Reference')
          .map((r) => textOf(r, 'URL'))
          .filter((u) => /^https?:\/\//i.test(u)),
      )
        .slice(0, 50)
        .map((u) => bounded(u, 2_048))
      const description = [
        stripHtml(textOf(item, 'Description')),
        stripHtml(textOf(item, 'Impact')) && `Impact: ${stripHtml(textOf(item, 'Impact'))}`,
        stripHtml(textOf(item, 'DetailedInformation')),
      ]
        .filter(Boolean)
        .join('\n\n')
      const remediation = stripHtml(textOf(item, 'Recommendation'))
      const cvss = cvssOf(item)
      const finding: ParsedFinding = {
        ruleId,
        title: name,
        severity,
        target: { kind: 'url', url: bounded(url, 2_048), ...(method ? { method } : {}), ...(parameter ? { parameter } : {}) },
        ...(cvss ? { cvss } : {}),
        ...(cwe.length > 0 ? { cwe } : {}),
        ...(cve.length > 0 ? { cve } : {}),
        ...(textOf(item, 'Type') ? { tags: [bounded(textOf(item, 'Type'), 100)] } : {}),
        ...(description ? { description: bounded(description) } : {}),
        ...(remediation ? { remediation: bounded(remediation) } : {}),
        ...(references.length > 0 ? { references } : {}),
        ...(details ? { evidence: bounded(details, PARSE_LIMITS.maxEvidenceChars) } : {}),
        ...(request ? { request: bounded(request, PARSE_LIMITS.maxEvidenceChars) } : {}),
        ...(response ? { response: bounded(response, PARSE_LIMITS.maxEvidenceChars) } : {}),
        raw: fitRaw({
          module: bounded(textOf(item, 'ModuleName'), 300) || null,
          type: bounded(textOf(item, 'Type'), 100) || null,
          affects: bounded(affects, 2_048),
          ...(item.attributes.id ? { itemId: bounded(item.attributes.id, 40) } : {}),
          ...(textOf(item, 'AOP_SourceFile') ? { sourceFile: bounded(textOf(item, 'AOP_SourceFile'), 1_000) } : {}),
          ...(textOf(item, 'AOP_SourceLine') ? { sourceLine: bounded(textOf(item, 'AOP_SourceLine'), 20) } : {}),
        }),
      }
      seen.set(key, finding)
      findings.push(finding)
    }

    let sawScanGroup = false
    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name !== 'ScanGroup')
          throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not Acunetix's <ScanGroup>`)
        sawScanGroup = true
      },
      open: {
        'ScanGroup/Scan': (node) => {
          finishScan()
          current = { line: node.line, fields: {}, crawlerStart: '', origin: null, warned: false }
          statistics.scans!++
        },
        'ScanGroup/Scan/Crawler': (node) => {
          if (current) current.crawlerStart = node.attributes.StartUrl ?? ''
        },
      },
      collect: {
        ...Object.fromEntries(
          SCAN_FIELDS.map((field) => [
            `ScanGroup/Scan/${field}`,
            (node: XmlNode) => {
              if (current) current.fields[field] = bounded(textOf(node), 4_000)
            },
          ]),
        ),
        'ScanGroup/Scan/ReportItems/ReportItem': readItem,
      },
    })
    finishScan()
    if (!sawScanGroup) throw new ScanParseError(LABEL, 'file', 'no <ScanGroup> element')

    const scan: ParsedScan = {
      format: 'acunetix_xml',
      tool: { name: 'Acunetix', version: '' },
      startedAt,
      finishedAt,
      targets: unique(targets),
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
