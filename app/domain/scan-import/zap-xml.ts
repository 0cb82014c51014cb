// OWASP ZAP's XML report (OWASPZAPReport, from 2.7 to 2.16): each site's alerts, one finding per
// instance (the URL, method and parameter are what identifies a DAST finding). Descriptions,
// solutions and references come as HTML paragraphs and are kept as text. Read one alert at a time,
// so a report of 50,000 alerts never needs the whole site in memory.
import type { Severity } from '../template-vocabulary.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { ScanCollector, fromDateText, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'OWASP ZAP XML'

const RISKS: Record<string, Severity> = { '3': 'high', '2': 'medium', '1': 'low', '0': 'info' }

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** ZAP's HTML paragraphs as plain text: one paragraph a line pair, tags dropped, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16) || 0xfffd)
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)) || 0xfffd)
      return ENTITIES[name.toLowerCase()] ?? entity
    })
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .trim()
}

/** The URLs of a references field, one per paragraph or line. */
const referencesOf = (html: string) =>
  unique(
    htmlToText(html)
      .split(/\s*\n+\s*/)
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//i.test(line)),
  )

/** Header and body of a request or response, as one bounded text. */
function message(node: XmlNode, head: string, body: string): string | undefined {
  const header = textOf(node, head)
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
  const content = textOf(node, body)
  const text = content ? `${header}\n\n${content}` : header
  return text ? bounded(text, PARSE_LIMITS.maxEvidenceChars) : undefined
}

export async function parseZapXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const statistics = { sites: 0, alerts: 0, instances: 0, duplicateInstances: 0, falsePositives: 0 }
  let tool = { name: 'ZAP', version: '' }
  let finishedAt: number | null = null
  let site: Record<string, string> = {}
  const targets: string[] = []

  const readSite = (node: XmlNode) => {
    statistics.sites++
    site = node.attributes
    const name = site.name ?? ''
    if (name) targets.push(name)
    const port = numberOf(site.port)
    if (site.host) {
      collector.addAsset({
        type: 'host',
        value: bounded(site.host),
        ports: port === undefined ? [] : [{ port, protocol: 'tcp', service: site.ssl === 'true' ? 'https' : 'http' }],
        raw: { site: bounded(name) },
      })
    }
  }

  const readAlert = (alert: XmlNode) => {
    statistics.alerts++
    const where = `line ${alert.line}`
    const pluginId = textOf(alert, 'pluginid')
    const title = textOf(alert, 'name') || textOf(alert, 'alert')
    const risk = textOf(alert, 'riskcode')
    const severity = RISKS[risk]
    if (!pluginId || !severity) {
      collector.note('skipped', where, `an alert without a plugin id or a known risk code (${bounded(title, 200) || 'untitled'})`)
      return
    }
    // ZAP's confidence 0 is an analyst's "false positive".
    if (textOf(alert, 'confidence') === '0') {
      statistics.falsePositives++
      collector.note('skipped', where, `${bounded(title, 200)}: marked a false positive in ZAP`)
      return
    }
    const cweId = numberOf(textOf(alert, 'cweid'))
    const wascId = numberOf(textOf(alert, 'wascid'))
    const tags = childrenNamed(child(alert, 'tags'), 'tag').map((tag) => textOf(tag, 'tag'))
    const description = htmlToText(textOf(alert, 'desc'))
    const solution = htmlToText(textOf(alert, 'solution'))
    const references = referencesOf(textOf(alert, 'reference'))
    const alertOtherInfo = htmlToText(textOf(alert, 'otherinfo'))
    // Before ZAP 2.7 an alert held its one instance's fields itself.
    const instances = childrenNamed(child(alert, 'instances'), 'instance')
    const listed = instances.length > 0 ? instances : textOf(alert, 'uri') ? [alert] : []
    if (listed.length === 0) {
      collector.note('skipped', where, `${bounded(title, 200)}: an alert without instances`)
      return
    }
    const count = numberOf(textOf(alert, 'count'))
    if (count !== undefined && count > listed.length) {
      collector.note('warning', where, `${bounded(title, 200)}: the report lists ${listed.length} of ${count} instances`)
    }
    // Instances at the same place are one finding; their other evidence is kept on it.
    const seen = new Map<string, ParsedFinding>()
    for (const instance of listed) {
      const url = textOf(instance, 'uri')
      const method = textOf(instance, 'method') || 'GET'
      const parameter = textOf(instance, 'param')
      const evidence = textOf(instance, 'evidence')
      const key = `${method} ${url} ${parameter}`
      const same = seen.get(key)
      if (same) {
        statistics.duplicateInstances++
        const more = (same.raw.moreEvidence ??= []) as string[]
        if (evidence && evidence !== same.evidence && more.length < 20 && !more.includes(evidence)) more.push(bounded(evidence, 1024))
        continue
      }
      statistics.instances++
      const attack = textOf(instance, 'attack')
      const otherInfo = htmlToText(textOf(instance, 'otherinfo')) || alertOtherInfo
      const request = message(instance, 'requestheader', 'requestbody')
      const response = message(instance, 'responseheader', 'responsebody')
      const finding: ParsedFinding = {
        ruleId: pluginId,
        title: bounded(title),
        severity,
        target: { kind: 'url', url: bounded(url), method, ...(parameter ? { parameter: bounded(parameter) } : {}) },
        ...(cweId !== undefined && cweId > 0 ? { cwe: [`CWE-${cweId}`] } : {}),
        ...(tags.length > 0 ? { tags: tags.slice(0, 50).map((t) => bounded(t, 200)) } : {}),
        ...(description ? { description: bounded(description) } : {}),
        ...(solution ? { remediation: bounded(solution) } : {}),
        ...(references.length > 0 ? { references: references.slice(0, 50).map((r) => bounded(r)) } : {}),
        ...(evidence ? { evidence: bounded(evidence, PARSE_LIMITS.maxEvidenceChars) } : {}),
        ...(request ? { request } : {}),
        ...(response ? { response } : {}),
        raw: {
          alertRef: textOf(alert, 'alertRef') || null,
          confidence: numberOf(textOf(alert, 'confidence')) ?? null,
          riskdesc: textOf(alert, 'riskdesc') || null,
          wascid: wascId ?? null,
          sourceid: textOf(alert, 'sourceid') || null,
          site: bounded(site.name ?? ''),
          ...(attack ? { attack: bounded(attack) } : {}),
          ...(otherInfo ? { otherinfo: bounded(otherInfo, PARSE_LIMITS.maxEvidenceChars) } : {}),
        },
      }
      seen.set(key, finding)
      collector.addFinding(finding)
    }
  }

  await readXml(source, LABEL, {
    root: (root) => {
      if (root.name !== 'OWASPZAPReport')
        throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <OWASPZAPReport>`)
      tool = { name: root.attributes.programName || 'ZAP', version: root.attributes.version ?? '' }
      finishedAt = fromDateText(root.attributes.generated)
    },
    open: { 'OWASPZAPReport/site': readSite },
    collect: { 'OWASPZAPReport/site/alerts/alertitem': readAlert },
  })

  return {
    format: 'zap_xml',
    tool,
    startedAt: null,
    finishedAt,
    targets: unique(targets).map((t) => bounded(t)),
    findings: collector.findings,
    assets: collector.assets,
    statistics: { ...statistics, findings: collector.findings.length },
    notes: collector.finalNotes(),
  }
}

export const zapXmlParser: ScanParser = {
  format: 'zap_xml',
  label: LABEL,
  services: ['dast'],
  sniff: (head) => xmlRootTag(head)?.name === 'OWASPZAPReport',
  parse: parseZapXml,
}
