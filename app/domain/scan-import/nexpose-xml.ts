// Rapid7 Nexpose / InsightVM "XML Export" reports (`<NexposeReport version="1.0">` and "2.0"): the
// scans, one <node> per host with its names, OS fingerprint and tests, its endpoints (port and
// protocol) with their services and the services' tests, then the VulnerabilityDefinitions, once
// each after all the nodes. A test whose status is vulnerable-exploited, vulnerable-version or
// vulnerable-potential is a finding, rated by the definition's severity (1 to 10) and carrying its
// CVSS, CVEs, references, exploits and solution; the other statuses (not-vulnerable, skipped-*,
// error) are counted. Version 2.0 adds the node's names, site, risk score and each test's
// vulnerable-since and PCI status. Nodes are read one at a time. A "Simple XML" export is refused in
// words: it holds no definitions.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, cweIds, Notes, tally, underLimit } from './json-fields.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type FindingTarget,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedPort,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { fitRaw, keepRepeatText } from './raw-fields.ts'
import { unique } from './scan-collector.ts'
import { isIp } from './surface-assets.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Nexpose XML'

/** The rule id of a Nexpose vulnerability check, named as Rapid7's so that it never meets another scanner's ids. */
export const nexposeRuleId = (vulnerabilityId: string) => `nexpose:${vulnerabilityId.toLowerCase()}`

/** Nexpose's 1 to 10 (moderate 1-3, severe 4-7, critical 8-10) on the CVSS-like five bands. */
function severityOf(level: number): Severity {
  if (level >= 9) return 'critical'
  if (level >= 7) return 'high'
  if (level >= 4) return 'medium'
  if (level >= 1) return 'low'
  return 'info'
}

const VULNERABLE = new Set(['vulnerable-exploited', 'vulnerable-version', 'vulnerable-potential'])

/** Nexpose's dates: "20131127T050242739" (UTC, milliseconds last). */
export function nexposeDate(value: string | undefined): number | null {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})?/.exec(value?.trim() ?? '')
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, m[7] ? +m[7] : 0) : null
}

const BLOCKS = new Set(['Paragraph', 'ListItem', 'ContainerBlockElement', 'UnorderedList', 'OrderedList', 'Table', 'TableRow'])

/**
 * The text of Nexpose's rich content (Paragraph, lists, URLLink, preformatted blocks) with paragraphs
 * as blank lines and list items as "- ". A node's own text comes before its children's.
 */
export function richText(node: XmlNode | undefined): string {
  if (!node) return ''
  const out: string[] = []
  // A list item's marker stands for the block break of its first paragraph.
  let afterMarker = false
  const walk = (n: XmlNode, depth: number) => {
    if (depth > PARSE_LIMITS.maxDepth) return
    const own =
      n.attributes.preformat === 'true'
        ? n.text
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
            .join('\n')
        : n.text.replace(/\s+/g, ' ').trim()
    const link = n.name === 'URLLink' ? (n.attributes.LinkURL ?? '') : ''
    const words = [own, link && link !== own ? link : ''].filter(Boolean).join(' ')
    if (n.name === 'ListItem') {
      out.push('\n- ')
      afterMarker = true
    } else if (BLOCKS.has(n.name) && !afterMarker) out.push('\n\n')
    if (words) {
      out.push(n.name === 'URLLink' ? ` ${words} ` : words)
      afterMarker = false
    }
    for (const c of n.children) walk(c, depth + 1)
  }
  walk(node, 0)
  return out
    .join('')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n- \n/g, '\n- ')
    .trim()
}

/** "Ubuntu Linux 20.04" from vendor, product and version, the vendor once ("Linux 2.6.9", not "Linux Linux 2.6.9"). */
const osName = (os: Record<string, string>) =>
  [os.product?.startsWith(os.vendor ?? '\u0000') ? '' : os.vendor, os.product, os.version].filter(Boolean).join(' ')

interface Definition {
  title: string
  severity: number | undefined
  cvss?: ParsedFinding['cvss']
  cve: string[]
  cwe: string[]
  description?: string
  solution?: string
  references: string[]
  tags: string[]
  raw: Record<string, unknown>
}

function definitionOf(node: XmlNode): Definition {
  const a = node.attributes
  const score = numberOf(a.cvssScore)
  const vector = (a.cvssVector ?? '').trim().replace(/^\((.*)\)$/, '$1')
  const version = /^CVSS:(\d\.\d)\//.exec(vector)?.[1] ?? '2.0'
  const references = childrenNamed(child(node, 'references'), 'reference').map((r) => ({
    source: (r.attributes.source ?? '').toUpperCase(),
    value: textOf(r),
  }))
  const exploits = childrenNamed(child(node, 'exploits'), 'exploit').map((e) =>
    bounded([e.attributes.type, e.attributes.title, e.attributes.link].filter(Boolean).join(': '), 500),
  )
  const malware = childrenNamed(child(node, 'malware'), 'name').map((n) => bounded(textOf(n), 200))
  const others = references.filter((r) => !['CVE', 'URL', 'CWE'].includes(r.source) && r.value)
  return {
    title: bounded(a.title ?? '', 500),
    severity: numberOf(a.severity),
    ...(score !== undefined && score >= 0 && score <= 10 && vector ? { cvss: { version, vector: bounded(vector, 256), score } } : {}),
    cve: cveIds(
      references.filter((r) => r.source === 'CVE').map((r) => r.value),
      200,
    ),
    cwe: cweIds(references.filter((r) => r.source === 'CWE').map((r) => r.value)),
    description: richText(child(node, 'description')) || undefined,
    solution: richText(child(node, 'solution')) || undefined,
    references: unique(
      references.filter((r) => r.source === 'URL' && /^https?:\/\//i.test(r.value)).map((r) => bounded(r.value, 2_048)),
    ).slice(0, 50),
    tags: [...(exploits.length > 0 ? ['exploit-available'] : []), ...(malware.length > 0 ? ['malware'] : [])],
    raw: {
      ...(a.pciSeverity ? { pciSeverity: bounded(a.pciSeverity, 10) } : {}),
      ...(numberOf(a.riskScore) !== undefined ? { riskScore: numberOf(a.riskScore) } : {}),
      ...(a.published ? { published: bounded(a.published, 40) } : {}),
      ...(a.modified ? { modified: bounded(a.modified, 40) } : {}),
      ...(exploits.length > 0 ? { exploits: unique(exploits).slice(0, 20) } : {}),
      ...(malware.length > 0 ? { malware: unique(malware).slice(0, 20) } : {}),
      ...(others.length > 0 ? { advisories: unique(others.map((r) => bounded(`${r.source}:${r.value}`, 200))).slice(0, 100) } : {}),
      ...(childrenNamed(child(node, 'tags'), 'tag').length > 0
        ? { categories: unique(childrenNamed(child(node, 'tags'), 'tag').map((t) => bounded(textOf(t), 100))).slice(0, 30) }
        : {}),
    },
  }
}

interface Hit {
  id: string
  host: { ip: string; name: string }
  port?: number
  protocol: string
  service?: string
  evidence: string
  line: number
  raw: Record<string, unknown>
}

export const nexposeXmlParser: ScanParser = {
  format: 'nexpose_xml',
  label: LABEL,
  services: ['network'],
  sniff: (head) => ['NexposeReport', 'NeXposeSimpleXML'].includes(xmlRootTag(head)?.name ?? ''),
  async parse(source) {
    const notes = new Notes()
    const statistics: Record<string, number> = { nodes: 0, tests: 0, vulnerableTests: 0, openPorts: 0, duplicateTests: 0 }
    const definitions = new Map<string, Definition>()
    const hits: Hit[] = []
    const assets: ParsedAsset[] = []
    const targets: string[] = []
    let version: number | undefined
    let startedAt: number | null = null
    let finishedAt: number | null = null

    const readTests = (tests: XmlNode | undefined, place: Omit<Hit, 'id' | 'evidence' | 'line' | 'raw'>) => {
      for (const test of childrenNamed(tests, 'test')) {
        statistics.tests!++
        const status = (test.attributes.status ?? '').toLowerCase()
        tally(statistics, `status:${status || 'none'}`)
        if (!VULNERABLE.has(status)) continue
        const id = test.attributes.id?.trim()
        if (!id) {
          notes.skip(`line ${test.line}`, 'a vulnerable <test> without an id')
          continue
        }
        statistics.vulnerableTests!++
        hits.push({
          ...place,
          id: bounded(id, 300),
          evidence: richText(test),
          line: test.line,
          raw: {
            status,
            ...(test.attributes.key ? { key: bounded(test.attributes.key, 500) } : {}),
            ...(test.attributes['vulnerable-since'] ? { vulnerableSince: bounded(test.attributes['vulnerable-since'], 40) } : {}),
            ...(test.attributes['pci-compliance-status'] ? { pciStatus: bounded(test.attributes['pci-compliance-status'], 20) } : {}),
          },
        })
      }
    }

    const readNode = (node: XmlNode) => {
      statistics.nodes!++
      const address = bounded(node.attributes.address?.trim() ?? '', 300)
      if (!address) {
        notes.skip(`line ${node.line}`, 'a <node> without an address')
        return
      }
      const names = unique(
        childrenNamed(child(node, 'names'), 'name')
          .map((n) => bounded(textOf(n), 300))
          .filter((n) => n && n !== address),
      )
      const name = names.find((n) => !isIp(n)) ?? ''
      const host = { ip: address, name }
      readTests(child(node, 'tests'), { host, protocol: 'tcp' })
      const ports: ParsedPort[] = []
      for (const endpoint of childrenNamed(child(node, 'endpoints'), 'endpoint')) {
        const port = numberOf(endpoint.attributes.port)
        if (port === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) continue
        const protocol = (endpoint.attributes.protocol || 'tcp').toLowerCase()
        const services = childrenNamed(child(endpoint, 'services'), 'service')
        const fingerprint = child(child(services[0], 'fingerprints'), 'fingerprint')
        if ((endpoint.attributes.status ?? 'open') === 'open') {
          statistics.openPorts!++
          ports.push({
            port,
            protocol,
            ...(services[0]?.attributes.name ? { service: bounded(services[0].attributes.name.toLowerCase(), 100) } : {}),
            ...(fingerprint?.attributes.product
              ? { product: bounded([fingerprint.attributes.vendor, fingerprint.attributes.product].filter(Boolean).join(' '), 200) }
              : {}),
            ...(fingerprint?.attributes.version ? { version: bounded(fingerprint.attributes.version, 100) } : {}),
          })
        }
        for (const service of services)
          readTests(child(service, 'tests'), { host, port, protocol, service: bounded(service.attributes.name ?? '', 100) || undefined })
      }
      const os = child(child(node, 'fingerprints'), 'os')?.attributes
      const software = childrenNamed(child(node, 'software'), 'fingerprint')
        .map((f) => bounded([f.attributes.vendor, f.attributes.product, f.attributes.version].filter(Boolean).join(' '), 200))
        .filter(Boolean)
      targets.push(address)
      if (!underLimit(assets.length, PARSE_LIMITS.assets, notes, `line ${node.line}`, 'assets')) return
      assets.push({
        type: 'ip',
        value: address,
        ports,
        technologies: unique(software).slice(0, 100),
        raw: fitRaw({
          ...(os ? { os: bounded(osName(os), 300) } : {}),
          ...(os?.['device-class'] ? { deviceClass: bounded(os['device-class'], 100) } : {}),
          ...(os?.certainty ? { osCertainty: numberOf(os.certainty) ?? null } : {}),
          ...(node.attributes['hardware-address'] ? { mac: bounded(node.attributes['hardware-address'], 40) } : {}),
          ...(node.attributes['site-name'] ? { site: bounded(node.attributes['site-name'], 200) } : {}),
          ...(node.attributes['site-importance'] ? { siteImportance: bounded(node.attributes['site-importance'], 40) } : {}),
          ...(numberOf(node.attributes['risk-score']) !== undefined ? { riskScore: numberOf(node.attributes['risk-score']) } : {}),
          ...(node.attributes['scan-template'] ? { scanTemplate: bounded(node.attributes['scan-template'], 200) } : {}),
        }),
      })
      for (const other of names) assets.push({ type: 'host', value: other, parent: address })
    }

    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name === 'NeXposeSimpleXML')
          throw new ScanParseError(LABEL, `line ${root.line}`, 'a Nexpose "Simple XML" report: export the report as "XML Export 2.0"')
        if (root.name !== 'NexposeReport')
          throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <NexposeReport>`)
        version = numberOf(root.attributes.version)
      },
      collect: {
        'NexposeReport/scans/scan': (scan) => {
          const start = nexposeDate(scan.attributes.startTime)
          const end = nexposeDate(scan.attributes.endTime)
          if (start !== null) startedAt = startedAt === null ? start : Math.min(startedAt, start)
          if (end !== null) finishedAt = finishedAt === null ? end : Math.max(finishedAt, end)
        },
        'NexposeReport/nodes/node': readNode,
        'NexposeReport/VulnerabilityDefinitions/vulnerability': (vulnerability) => {
          const id = vulnerability.attributes.id?.trim().toLowerCase()
          if (id) definitions.set(id, definitionOf(vulnerability))
        },
      },
    })

    // Findings once the definitions are known: one per check and place, a repeat (another key) adding its proof.
    const findings: ParsedFinding[] = []
    const seen = new Map<string, ParsedFinding>()
    for (const hit of hits) {
      const where = `line ${hit.line}`
      const ruleId = nexposeRuleId(hit.id)
      const key = `${hit.host.ip}\u001f${hit.port ?? 0}/${hit.protocol}\u001f${ruleId}`
      const same = seen.get(key)
      if (same) {
        statistics.duplicateTests!++
        keepRepeatText(same, 'moreEvidence', hit.evidence)
        continue
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) break
      const definition = definitions.get(hit.id.toLowerCase())
      if (!definition) notes.warn(where, `${hit.id}: no definition in the report, imported without its text`)
      const severity =
        definition?.severity !== undefined
          ? severityOf(definition.severity)
          : (notes.warn(where, `${hit.id}: no severity, read as info`), 'info' as const)
      tally(statistics, `severity:${severity}`)
      const target: FindingTarget = {
        kind: 'host',
        host: hit.host.name || hit.host.ip,
        ip: hit.host.ip,
        ...(hit.port !== undefined ? { port: hit.port } : {}),
        protocol: hit.protocol,
      }
      const tags = [...(definition?.tags ?? []), ...(hit.raw.status === 'vulnerable-potential' ? ['potential'] : [])]
      const finding: ParsedFinding = {
        ruleId,
        title: definition?.title || hit.id,
        severity,
        target,
        ...(definition?.cvss ? { cvss: definition.cvss } : {}),
        ...(definition?.cwe.length ? { cwe: definition.cwe } : {}),
        ...(definition?.cve.length ? { cve: definition.cve } : {}),
        ...(tags.length > 0 ? { tags } : {}),
        ...(definition?.description ? { description: bounded(definition.description) } : {}),
        ...(definition?.solution ? { remediation: bounded(definition.solution) } : {}),
        ...(definition?.references.length ? { references: definition.references } : {}),
        ...(hit.evidence ? { evidence: bounded(hit.evidence, PARSE_LIMITS.maxEvidenceChars) } : {}),
        raw: fitRaw({
          vulnerabilityId: hit.id,
          ...(definition?.severity !== undefined ? { nexposeSeverity: definition.severity } : {}),
          ...(hit.service ? { service: hit.service } : {}),
          ...hit.raw,
          ...definition?.raw,
        }),
      }
      seen.set(key, finding)
      findings.push(finding)
    }

    const scan: ParsedScan = {
      format: 'nexpose_xml',
      tool: { name: 'Nexpose', version: '' },
      startedAt,
      finishedAt,
      targets: unique(targets).slice(0, 10_000),
      findings,
      assets,
      statistics: {
        ...statistics,
        ...(version !== undefined ? { xmlVersion: version } : {}),
        findings: findings.length,
        skipped: notes.skipped,
        notesNotKept: notes.dropped,
      },
      notes: notes.kept,
    }
    return scan
  },
}
