// Tenable Nessus's .nessus files (NessusClientData_v2, Nessus 5 to 10 and Tenable.sc exports): one
// finding per ReportItem, rated by the item's own severity (0 to 4), with its CVSS (v4, v3 or v2,
// the newest the plugin gives), CVEs, CWEs, advisories and plugin output. Each ReportHost is an
// asset with its ports, OS, names and CPEs; the port scanners' items and the scan information item
// only fill the asset and the tool's version. The policy's plugin selection, often most of the
// file, is streamed past without being kept.
import type { Severity } from '../template-vocabulary.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type FindingTarget,
  type ParsedFinding,
  type ParsedPort,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { cveIds } from './json-fields.ts'
import { fitRaw, keepRepeatText } from './raw-fields.ts'
import { ScanCollector, fromDateText, fromUnixSeconds, unique } from './scan-collector.ts'
import { isIp } from './surface-assets.ts'
import { childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Nessus XML'

/** The policy's plugin_set names every plugin of the feed in one text (900,000 characters in 2022, growing). */
export const NESSUS_MAX_RUN_CHARS = 8 * 1_048_576

const SEVERITY: Record<string, Severity> = { '0': 'info', '1': 'low', '2': 'medium', '3': 'high', '4': 'critical' }
const RISK_FACTOR: Record<string, Severity> = { none: 'info', low: 'low', medium: 'medium', high: 'high', critical: 'critical' }

/** Items that only say which ports are open (the port scanners) and how the scan ran: they fill the host's asset. */
const PORT_SCANNERS = new Set(['10180', '10335', '11219', '14272', '14274', '34220', '34277'])
const SCAN_INFORMATION = '19506'

/** The rule id of a plugin: its number, named as Nessus's so that it never meets another scanner's numbers. */
export const nessusRuleId = (pluginId: string) => `nessus:${pluginId}`

/** Item fields kept raw as they are (text). */
const RAW_TEXT_FIELDS = [
  'plugin_type',
  'fname',
  'script_version',
  'plugin_publication_date',
  'plugin_modification_date',
  'vuln_publication_date',
  'patch_publication_date',
  'exploit_available',
  'exploitability_ease',
  'exploit_code_maturity',
  'exploit_framework_metasploit',
  'exploit_framework_core',
  'exploit_framework_canvas',
  'exploited_by_malware',
  'exploited_by_nessus',
  'metasploit_name',
  'canvas_package',
  'in_the_news',
  'cisa_known_exploited',
  'unsupported_by_vendor',
  'vpr_score',
  'epss_score',
  'threat_intensity_last_28',
  'threat_recency',
  'threat_sources_last_28',
  'product_coverage',
  'age_of_vuln',
  'stig_severity',
  'cvss_score_source',
  'cvss_score_rationale',
  'cvss_temporal_vector',
  'cvss_temporal_score',
  'cvss3_temporal_vector',
  'cvss3_temporal_score',
  'cvssV3_impactScore',
  'cvss4_threat_vector',
  'cvss4_threat_score',
  'asset_inventory',
  'os_identification',
  'agent',
  'tra',
]
/** Item fields that repeat, kept raw as lists. */
const RAW_LIST_FIELDS = ['bid', 'xref', 'cpe', 'iava', 'iavb', 'iavt', 'cert', 'cisa-known-exploited', 'owasp', 'secunia', 'msft', 'mskb']

const texts = (node: XmlNode, name: string) =>
  childrenNamed(node, name)
    .map((c) => textOf(c))
    .filter(Boolean)

/** A plugin's text with Nessus's hard wrapping and indentation undone line by line, paragraphs kept. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

/** The newest CVSS the item gives: v4, then v3, then v2 ("CVSS2#AV:N/..." read as 2.0). */
function cvssOf(item: XmlNode): ParsedFinding['cvss'] {
  for (const [vectorField, scoreField] of [
    ['cvss4_vector', 'cvss4_base_score'],
    ['cvss3_vector', 'cvss3_base_score'],
    ['cvss_vector', 'cvss_base_score'],
  ] as const) {
    const vector = textOf(item, vectorField)
    const score = numberOf(textOf(item, scoreField))
    if (!vector || score === undefined || score < 0 || score > 10) continue
    const cvss2 = /^CVSS2#(.+)$/.exec(vector)
    if (cvss2?.[1]) return { version: '2.0', vector: bounded(cvss2[1], 256), score }
    const version = /^CVSS:(\d\.\d)\//.exec(vector)?.[1] ?? (vectorField === 'cvss_vector' ? '2.0' : undefined)
    if (version) return { version, vector: bounded(vector, 256), score }
  }
  return undefined
}

/** CWE ids from <cwe> (79, CWE-79, cwe-79) and "CWE:79" cross-references. */
function cwesOf(item: XmlNode): string[] {
  const ids = [
    ...texts(item, 'cwe'),
    ...texts(item, 'xref')
      .filter((x) => /^CWE:/i.test(x))
      .map((x) => x.slice(4)),
  ]
  return unique(
    ids.flatMap((id) => {
      const match = /^(?:cwe-?)?(\d{1,6})$/i.exec(id.trim())
      return match && Number(match[1]) > 0 ? [`CWE-${Number(match[1])}`] : []
    }),
  ).slice(0, 20)
}

const cvesOf = (item: XmlNode) => cveIds(texts(item, 'cve'), 200)

/** see_also's URLs, one a line (older plugins put several on a line). */
const referencesOf = (item: XmlNode) =>
  unique(
    textOf(item, 'see_also')
      .split(/\s+/)
      .filter((u) => /^https?:\/\//i.test(u)),
  )
    .slice(0, 50)
    .map((u) => bounded(u, 2_048))

interface HostState {
  ip: string
  name: string
  fqdn: string
  properties: Record<string, string>
  ports: Map<string, ParsedPort>
  line: number
}

/** The technologies a host's CPE tags name: "cpe:/a:nginx:nginx:1.19.0 -> Nginx" is "Nginx 1.19.0". */
function technologiesOf(properties: Record<string, string>): string[] {
  const named = Object.entries(properties)
    .filter(([key]) => /^cpe-\d+$/.test(key))
    .flatMap(([, value]) => {
      const [cpe, name] = value.split('->').map((part) => part.trim())
      if (!cpe?.startsWith('cpe:/a:')) return []
      const version = cpe.split(':')[4]
      return [[name || cpe.split(':')[3] || cpe, version].filter(Boolean).join(' ')]
    })
  return unique(named).slice(0, 100)
}

/** The host's properties Bulwark keeps on the asset (the rest, such as traceroute hops and patch summaries, is noise to a client). */
const HOST_RAW: Record<string, string> = {
  'operating-system': 'os',
  os: 'osFamily',
  'system-type': 'systemType',
  'netbios-name': 'netbiosName',
  'mac-address': 'mac',
  'host-rdns': 'reverseDns',
  Credentialed_Scan: 'credentialedScan',
  'policy-used': 'policy',
  cpe: 'osCpe',
  'patch-summary-total-cves': 'patchSummaryCves',
}

export async function parseNessusXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const statistics = { hosts: 0, items: 0, portScannerItems: 0, duplicateItems: 0, openPorts: 0 }
  const bySeverity: Record<string, number> = {}
  const tool = { name: 'Nessus', version: '' }
  let policyTargets: string[] = []
  let reports = 0
  let startedAt: number | null = null
  let finishedAt: number | null = null
  let host: HostState | null = null
  const hostNames: string[] = []
  // One finding per plugin and place: an item repeated at the same port adds its output to the first.
  let seen = new Map<string, ParsedFinding>()

  const widen = (start: number | null, end: number | null) => {
    if (start !== null) startedAt = startedAt === null ? start : Math.min(startedAt, start)
    if (end !== null) finishedAt = finishedAt === null ? end : Math.max(finishedAt, end)
  }

  const finishHost = () => {
    if (!host) return
    const { properties } = host
    const start = fromUnixSeconds(properties.HOST_START_TIMESTAMP) ?? fromDateText(properties.HOST_START)
    const end = fromUnixSeconds(properties.HOST_END_TIMESTAMP) ?? fromDateText(properties.HOST_END)
    widen(start, end)
    const raw: Record<string, unknown> = { reportHost: host.name }
    for (const [tag, key] of Object.entries(HOST_RAW)) if (properties[tag]) raw[key] = bounded(properties[tag], 1_024)
    const cpes = Object.entries(properties)
      .filter(([key]) => /^cpe-\d+$/.test(key))
      .map(([, value]) => bounded(value, 300))
    collector.addAsset({
      type: 'ip',
      value: bounded(host.ip, 2_048),
      ports: [...host.ports.values()],
      technologies: technologiesOf(properties),
      raw: fitRaw({ ...raw, ...(cpes.length > 0 ? { cpes: cpes.slice(0, 50) } : {}), startedAt: start, finishedAt: end }),
    })
    // A host's names, once each whatever their case (NetBIOS names are upper case).
    const names = new Map<string, string>()
    for (const name of [host.fqdn, isIp(host.name) ? '' : host.name, properties['netbios-name'] ?? ''])
      if (name && name !== host.ip && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
    for (const name of names.values()) collector.addAsset({ type: 'host', value: bounded(name, 2_048), parent: host.ip })
    host = null
  }

  const openHost = (node: XmlNode) => {
    finishHost()
    statistics.hosts++
    const name = node.attributes.name ?? ''
    host = { ip: name, name, fqdn: '', properties: {}, ports: new Map(), line: node.line }
    seen = new Map()
    if (name) hostNames.push(name)
  }

  const readProperties = (node: XmlNode) => {
    if (!host) return
    for (const tag of childrenNamed(node, 'tag')) {
      const name = tag.attributes.name
      if (name) host.properties[name] = tidy(tag.text)
    }
    const ip = host.properties['host-ip']
    if (ip) host.ip = ip
    host.fqdn = host.properties['host-fqdn'] ?? (isIp(host.name) ? '' : host.name)
  }

  const readItem = (item: XmlNode) => {
    statistics.items++
    const where = `line ${item.line}`
    if (!host || !host.ip) {
      collector.note('skipped', where, 'a ReportItem outside a named ReportHost')
      return
    }
    const pluginId = item.attributes.pluginID ?? ''
    const title = item.attributes.pluginName || textOf(item, 'plugin_name')
    const port = numberOf(item.attributes.port)
    const protocol = (item.attributes.protocol || 'tcp').toLowerCase()
    const service = item.attributes.svc_name ?? ''
    if (!pluginId) {
      collector.note('skipped', where, `${bounded(title, 200) || 'an item'}: no plugin id`)
      return
    }
    if (port !== undefined && port > 0 && port <= 65_535) {
      const key = `${port}/${protocol}`
      const known = host.ports.get(key)
      if (!known) {
        statistics.openPorts++
        host.ports.set(key, { port, protocol, ...(service && service !== 'general' ? { service: service.replace(/\?$/, '') } : {}) })
      } else if (!known.service && service && service !== 'general') known.service = service.replace(/\?$/, '')
    }
    const output = tidy(textOf(item, 'plugin_output'))
    if (pluginId === SCAN_INFORMATION) {
      tool.version ||= /Nessus version\s*:\s*([^\s]+)/.exec(output)?.[1] ?? ''
      return
    }
    if (PORT_SCANNERS.has(pluginId)) {
      statistics.portScannerItems++
      return
    }
    const severity =
      SEVERITY[item.attributes.severity ?? ''] ??
      RISK_FACTOR[textOf(item, 'risk_factor').toLowerCase()] ??
      (collector.note('warning', where, `plugin ${pluginId}: severity ${JSON.stringify(item.attributes.severity ?? null)} read as info`),
      'info')
    const hasPort = port !== undefined && port > 0 && port <= 65_535
    const target: FindingTarget = {
      kind: 'host',
      host: bounded(host.fqdn || host.ip, 2_048),
      ip: bounded(host.ip, 2_048),
      ...(hasPort ? { port } : {}),
      protocol,
    }
    const ruleId = nessusRuleId(pluginId)
    const place = `${hasPort ? port : 0}/${protocol}`
    const same = seen.get(place + ruleId)
    if (same) {
      statistics.duplicateItems++
      keepRepeatText(same, 'moreOutput', output)
      return
    }
    bySeverity[severity] = (bySeverity[severity] ?? 0) + 1
    const synopsis = tidy(textOf(item, 'synopsis'))
    const description = [synopsis, tidy(textOf(item, 'description'))].filter(Boolean).join('\n\n')
    const solution = tidy(textOf(item, 'solution'))
    const cvss = cvssOf(item)
    const cve = cvesOf(item)
    const cwe = cwesOf(item)
    const references = referencesOf(item)
    const raw: Record<string, unknown> = {
      pluginId,
      pluginFamily: item.attributes.pluginFamily ?? null,
      service: service || null,
      riskFactor: textOf(item, 'risk_factor') || null,
    }
    for (const field of RAW_TEXT_FIELDS) {
      const value = textOf(item, field)
      if (value) raw[field] = bounded(tidy(value), 512)
    }
    for (const field of RAW_LIST_FIELDS) {
      const values = texts(item, field).flatMap((value) => (field === 'cpe' ? value.split(/\s+/) : [value]))
      if (values.length > 0) raw[field] = unique(values.map((v) => bounded(v, 200))).slice(0, 50)
    }
    const tags = [
      ...(textOf(item, 'exploit_available') === 'true' ? ['exploit-available'] : []),
      ...(textOf(item, 'cisa_known_exploited') || childrenNamed(item, 'cisa-known-exploited').length > 0 ? ['known-exploited'] : []),
      ...(textOf(item, 'unsupported_by_vendor') === 'true' ? ['unsupported'] : []),
    ]
    const finding: ParsedFinding = {
      ruleId,
      title: bounded(title || ruleId, 500),
      severity,
      target,
      ...(cvss ? { cvss } : {}),
      ...(cwe.length > 0 ? { cwe } : {}),
      ...(cve.length > 0 ? { cve } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(description ? { description: bounded(description) } : {}),
      ...(solution && solution.toLowerCase() !== 'n/a' ? { remediation: bounded(solution) } : {}),
      ...(references.length > 0 ? { references } : {}),
      ...(output ? { evidence: bounded(output, PARSE_LIMITS.maxEvidenceChars) } : {}),
      raw: fitRaw(raw),
    }
    seen.set(place + ruleId, finding)
    collector.addFinding(finding)
  }

  await readXml(
    source,
    LABEL,
    {
      root: (root) => {
        if (root.name === 'NessusClientData')
          throw new ScanParseError(LABEL, `line ${root.line}`, 'a Nessus v1 report (<NessusClientData>): export the scan as .nessus (v2)')
        if (root.name !== 'NessusClientData_v2')
          throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <NessusClientData_v2>`)
      },
      open: {
        'NessusClientData_v2/Report': () => reports++,
        'NessusClientData_v2/Report/ReportHost': openHost,
      },
      collect: {
        'NessusClientData_v2/Policy/Preferences/ServerPreferences/preference': (preference) => {
          if (textOf(preference, 'name') === 'TARGET')
            policyTargets = textOf(preference, 'value')
              .split(/[,\s]+/)
              .filter(Boolean)
        },
        'NessusClientData_v2/Report/ReportHost/HostProperties': readProperties,
        'NessusClientData_v2/Report/ReportHost/ReportItem': readItem,
      },
    },
    { maxRunChars: NESSUS_MAX_RUN_CHARS },
  )
  finishHost()
  if (reports === 0) throw new ScanParseError(LABEL, 'file', 'no <Report> element: the file holds a policy but no results')

  return {
    format: 'nessus_xml',
    tool,
    startedAt,
    finishedAt,
    targets: unique(policyTargets.length > 0 ? policyTargets : hostNames)
      .slice(0, 10_000)
      .map((t) => bounded(t, 2_048)),
    findings: collector.findings,
    assets: collector.assets,
    statistics: {
      ...statistics,
      findings: collector.findings.length,
      ...Object.fromEntries(Object.entries(bySeverity).map(([severity, count]) => [`severity:${severity}`, count])),
    },
    notes: collector.finalNotes(),
  }
}

export const nessusXmlParser: ScanParser = {
  format: 'nessus_xml',
  label: LABEL,
  services: ['network'],
  sniff: (head) => {
    const name = xmlRootTag(head)?.name
    return name === 'NessusClientData_v2' || name === 'NessusClientData'
  },
  parse: parseNessusXml,
}
