// Qualys VM's XML reports, in their two shapes: the scan results (`<SCAN>`, scan-1.dtd: one <IP> per
// host with its VULNS, PRACTICES (potential vulnerabilities), INFOS and SERVICES grouped by category
// and port, each item carrying its own knowledge base text) and the host based report
// (`<ASSET_DATA_REPORT>`, asset_data_report.dtd: a HOST_LIST of VULN_INFO items naming a QID, with
// the QIDs' text once each in the GLOSSARY after the hosts). One finding per QID, host, port and
// protocol, rated by Qualys's severity (1 to 5), information gathered read as info; fixed items of
// the host based report are counted, not imported. Each host is an asset with its ports and OS, its
// DNS and NetBIOS names assets under it. Hosts are read one at a time.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, Notes, stripHtml, tally, underLimit } from './json-fields.ts'
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
import { fromDateText, unique } from './scan-collector.ts'
import { isIp } from './surface-assets.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Qualys VM XML'

/** Qualys's five levels (Minimal, Medium, Serious, Critical, Urgent) as the product's five. */
const SEVERITY: Record<string, Severity> = { '1': 'info', '2': 'low', '3': 'medium', '4': 'high', '5': 'critical' }

/** The rule id of a QID, named as Qualys's so that it never meets another scanner's numbers. */
export const qualysRuleId = (qid: string) => `qualys:${qid}`

/** What kind of item it is: a confirmed vulnerability, a potential one, or information gathered. */
type Kind = 'vulnerability' | 'potential' | 'information'
const SCAN_KINDS: Record<string, Kind> = { VULN: 'vulnerability', PRACTICE: 'potential', INFO: 'information', SERVICE: 'information' }
const REPORT_KINDS: Record<string, Kind> = { vuln: 'vulnerability', practice: 'potential', ig: 'information' }

/** A QID's knowledge base text, from a SCAN item or the host based report's glossary. */
interface Knowledge {
  title: string
  severity: string
  category: string
  threat?: string
  impact?: string
  solution?: string
  cve: string[]
  cvss?: ParsedFinding['cvss']
  references: string[]
  raw: Record<string, unknown>
}

/** One place a QID was found on a host. */
interface Occurrence {
  qid: string
  kind: Kind
  severity: string
  host: HostState
  port?: number
  protocol: string
  service?: string
  result?: string
  line: number
  raw: Record<string, unknown>
}

interface HostState {
  ip: string
  dns: string
  netbios: string
  os: string
  ports: Map<string, ParsedPort>
  raw: Record<string, unknown>
}

/** Qualys's knowledge base text is HTML whose paragraphs are opened by <P>. */
const html = (node: XmlNode | undefined, name: string) => stripHtml(textOf(node, name).replace(/<P>/gi, '\n\n')) || undefined
const notApplicable = (value: string | undefined) => (value && !/^n\/?a\.?$/i.test(value) ? value : undefined)

/**
 * "9.0 (AV:N/AC:H/...)" (host based report); the scan results give a score without its vector, which
 * stays a raw field rather than a CVSS the report could not show. "-" and "" are none.
 */
function cvssOf(base: string, version: string): ParsedFinding['cvss'] {
  const match = /^(\d{1,2}(?:\.\d)?)\s*\((.+)\)$/.exec(base.trim())
  const score = numberOf(match?.[1])
  if (!match || score === undefined || score < 0 || score > 10) return undefined
  const vector = match[2]?.trim() ?? ''
  const stated = /^CVSS:(\d\.\d)\//.exec(vector)?.[1]
  return { version: stated ?? version, vector: bounded(vector, 256), score }
}

/** The newest CVSS the QID gives: 3 before 2. */
const bestCvss = (cvss3: string, cvss2: string) => cvssOf(cvss3, '3.0') ?? cvssOf(cvss2, '2.0')

/** The advisories and exploits an item names, as links. */
function referencesOf(node: XmlNode): string[] {
  const links = [
    ...childrenNamed(child(node, 'VENDOR_REFERENCE_LIST'), 'VENDOR_REFERENCE').map((r) => textOf(r, 'URL')),
    ...childrenNamed(child(node, 'CVE_ID_LIST'), 'CVE_ID').map((r) => textOf(r, 'URL')),
  ]
  return unique(links.filter((u) => /^https?:\/\//i.test(u)))
    .slice(0, 50)
    .map((u) => bounded(u, 2_048))
}

/** Exploits and malware Qualys correlates with the QID: tags and raw fields. */
function correlationOf(node: XmlNode): { tags: string[]; raw: Record<string, unknown> } {
  const correlation = child(node, 'CORRELATION')
  const exploits = childrenNamed(child(correlation, 'EXPLOITABILITY'), 'EXPLT_SRC').flatMap((source) =>
    childrenNamed(child(source, 'EXPLT_LIST'), 'EXPLT').map((e) => bounded(`${textOf(source, 'SRC_NAME')}: ${textOf(e, 'DESC')}`, 300)),
  )
  const malware = childrenNamed(child(child(correlation, 'MALWARE'), 'MW_SRC'), 'MW_LIST').flatMap((list) =>
    childrenNamed(list, 'MW_INFO').map((m) => bounded(textOf(m, 'MW_ID'), 200)),
  )
  return {
    tags: [...(exploits.length > 0 ? ['exploit-available'] : []), ...(malware.length > 0 ? ['malware'] : [])],
    raw: {
      ...(exploits.length > 0 ? { exploits: unique(exploits).slice(0, 20) } : {}),
      ...(malware.length > 0 ? { malware: unique(malware).slice(0, 20) } : {}),
    },
  }
}

/** The knowledge base text of a SCAN item (<VULN>, <PRACTICE>, <INFO>) or of a glossary <VULN_DETAILS>. */
function knowledgeOf(node: XmlNode, scanItem: boolean): Knowledge {
  const cvss = scanItem
    ? bestCvss(textOf(node, 'CVSS3_BASE'), textOf(node, 'CVSS_BASE'))
    : bestCvss(textOf(child(node, 'CVSS3_SCORE'), 'CVSS3_BASE'), textOf(child(node, 'CVSS_SCORE'), 'CVSS_BASE'))
  const correlation = correlationOf(node)
  const bugtraq = childrenNamed(child(node, 'BUGTRAQ_ID_LIST'), 'BUGTRAQ_ID')
    .map((b) => textOf(b, 'ID'))
    .filter(Boolean)
  const vendor = childrenNamed(child(node, 'VENDOR_REFERENCE_LIST'), 'VENDOR_REFERENCE')
    .map((r) => textOf(r, 'ID'))
    .filter(Boolean)
  const cve = cveIds(
    [node.attributes.cveid ?? '', ...childrenNamed(child(node, 'CVE_ID_LIST'), 'CVE_ID').map((c) => textOf(c, 'ID') || textOf(c))],
    200,
  )
  return {
    title: bounded(textOf(node, 'TITLE'), 500),
    severity: node.attributes.severity ?? textOf(node, 'SEVERITY'),
    category: bounded(textOf(node, 'CATEGORY'), 200),
    threat: html(node, scanItem ? 'DIAGNOSIS' : 'THREAT'),
    impact: notApplicable(html(node, scanItem ? 'CONSEQUENCE' : 'IMPACT')),
    solution: notApplicable(html(node, 'SOLUTION')),
    cve,
    cvss,
    references: referencesOf(node),
    raw: {
      ...correlation.raw,
      ...(correlation.tags.length > 0 ? { tags: correlation.tags } : {}),
      ...(scanItem && numberOf(textOf(node, 'CVSS3_BASE')) !== undefined ? { cvss3Base: numberOf(textOf(node, 'CVSS3_BASE')) } : {}),
      ...(scanItem && numberOf(textOf(node, 'CVSS_BASE')) !== undefined ? { cvssBase: numberOf(textOf(node, 'CVSS_BASE')) } : {}),
      ...(textOf(node, 'PCI_FLAG') ? { pciFlag: textOf(node, 'PCI_FLAG') === '1' } : {}),
      ...(textOf(node, 'LAST_UPDATE') ? { lastUpdate: bounded(textOf(node, 'LAST_UPDATE'), 40) } : {}),
      ...(bugtraq.length > 0
        ? {
            bugtraq: unique(bugtraq)
              .slice(0, 50)
              .map((b) => bounded(b, 40)),
          }
        : {}),
      ...(vendor.length > 0
        ? {
            vendorReferences: unique(vendor)
              .slice(0, 50)
              .map((v) => bounded(v, 200)),
          }
        : {}),
    },
  }
}

export const qualysXmlParser: ScanParser = {
  format: 'qualys_xml',
  label: LABEL,
  services: ['network'],
  sniff(head) {
    const root = xmlRootTag(head)
    if (root?.name === 'ASSET_DATA_REPORT') return true
    // <SCAN value="scan/1222134912.63524">: the scan reference Qualys gives every scan.
    return root?.name === 'SCAN' && (/\bvalue\s*=\s*"scan\//.test(root.tag) || /<!DOCTYPE\s+SCAN\s+SYSTEM\s+"[^"]*scan-1\.dtd"/.test(head))
  },
  async parse(source) {
    const notes = new Notes()
    const statistics: Record<string, number> = { hosts: 0, items: 0, fixed: 0, duplicateItems: 0 }
    const knowledge = new Map<string, Knowledge>()
    const occurrences: Occurrence[] = []
    const hosts: HostState[] = []
    const header: Record<string, string> = {}
    const targets: string[] = []
    let shape: 'scan' | 'report' | null = null
    let lastFound: number | null = null

    const openHost = (ip: string, dns: string, netbios: string, os: string, raw: Record<string, unknown>): HostState => {
      statistics.hosts!++
      const host: HostState = {
        ip: bounded(ip, 300),
        dns: bounded(dns, 300),
        netbios: bounded(netbios, 300),
        os: bounded(os, 500),
        ports: new Map(),
        raw,
      }
      hosts.push(host)
      return host
    }

    const addOccurrence = (occurrence: Omit<Occurrence, 'protocol'> & { protocol?: string }) => {
      statistics.items!++
      const protocol = (occurrence.protocol || 'tcp').toLowerCase()
      const port = occurrence.port
      if (port !== undefined) {
        const key = `${port}/${protocol}`
        const known = occurrence.host.ports.get(key)
        if (!known) occurrence.host.ports.set(key, { port, protocol, ...(occurrence.service ? { service: occurrence.service } : {}) })
        else if (!known.service && occurrence.service) known.service = occurrence.service
      }
      occurrences.push({ ...occurrence, protocol })
    }

    const portOf = (value: string | undefined) => {
      const port = numberOf(value)
      return port !== undefined && Number.isInteger(port) && port > 0 && port <= 65_535 ? port : undefined
    }

    // <SCAN>: <IP value name> with its items under <VULNS|PRACTICES|INFOS|SERVICES>/<CAT port protocol>.
    const readScanHost = (ip: XmlNode) => {
      const address = ip.attributes.value?.trim() ?? ''
      if (!address) {
        notes.skip(`line ${ip.line}`, 'an <IP> without an address')
        return
      }
      const name = ip.attributes.name?.trim() ?? ''
      const host = openHost(
        address,
        name && name !== 'No registered hostname' && !isIp(name) ? name : '',
        textOf(ip, 'NETBIOS_HOSTNAME'),
        textOf(ip, 'OS'),
        {},
      )
      for (const group of ['VULNS', 'PRACTICES', 'INFOS', 'SERVICES'])
        for (const category of childrenNamed(child(ip, group), 'CAT'))
          for (const item of category.children) {
            const kind = SCAN_KINDS[item.name]
            const qid = item.attributes.number?.trim() ?? ''
            if (!kind) continue
            if (!qid) {
              notes.skip(`line ${item.line}`, `a <${item.name}> without a QID`)
              continue
            }
            const facts = knowledgeOf(item, true)
            facts.category ||= bounded(category.attributes.value ?? '', 200)
            if (!knowledge.has(qid)) knowledge.set(qid, facts)
            addOccurrence({
              qid,
              kind,
              severity: facts.severity,
              host,
              port: portOf(category.attributes.port),
              protocol: category.attributes.protocol,
              result: textOf(item, 'RESULT') || undefined,
              line: item.line,
              raw: {
                ...(category.attributes.fqdn ? { fqdn: bounded(category.attributes.fqdn, 300) } : {}),
                ...(category.attributes.misc ? { misc: bounded(category.attributes.misc, 300) } : {}),
              },
            })
          }
    }

    // <ASSET_DATA_REPORT>: <HOST> with <VULN_INFO_LIST>/<VULN_INFO>, the QIDs' text in the glossary.
    const readReportHost = (node: XmlNode) => {
      const address = textOf(node, 'IP')
      if (!address) {
        notes.skip(`line ${node.line}`, 'a <HOST> without an <IP>')
        return
      }
      const groups = childrenNamed(child(node, 'ASSET_GROUPS'), 'ASSET_GROUP_TITLE').map((g) => bounded(textOf(g), 200))
      const host = openHost(address, textOf(node, 'DNS'), textOf(node, 'NETBIOS'), textOf(node, 'OPERATING_SYSTEM'), {
        ...(textOf(node, 'TRACKING_METHOD') ? { trackingMethod: bounded(textOf(node, 'TRACKING_METHOD'), 40) } : {}),
        ...(groups.length > 0 ? { assetGroups: groups.slice(0, 50) } : {}),
      })
      for (const info of childrenNamed(child(node, 'VULN_INFO_LIST'), 'VULN_INFO')) {
        const qid = textOf(info, 'QID')
        const where = `line ${info.line}`
        if (!qid) {
          notes.skip(where, 'a <VULN_INFO> without a QID')
          continue
        }
        const status = textOf(info, 'VULN_STATUS')
        if (/^fixed$/i.test(status)) {
          statistics.fixed!++
          continue
        }
        const found = fromDateText(textOf(info, 'LAST_FOUND'))
        if (found !== null) lastFound = lastFound === null ? found : Math.max(lastFound, found)
        const kind = REPORT_KINDS[textOf(info, 'TYPE').toLowerCase()] ?? 'vulnerability'
        addOccurrence({
          qid,
          kind,
          severity: '',
          host,
          port: portOf(textOf(info, 'PORT')),
          protocol: textOf(info, 'PROTOCOL'),
          service: bounded(textOf(info, 'SERVICE'), 100) || undefined,
          result: textOf(info, 'RESULT') || undefined,
          line: info.line,
          raw: {
            ...(status ? { status: bounded(status, 40) } : {}),
            ...(textOf(info, 'FQDN') ? { fqdn: bounded(textOf(info, 'FQDN'), 300) } : {}),
            ...(textOf(info, 'SSL') === 'true' ? { ssl: true } : {}),
            ...(textOf(info, 'FIRST_FOUND') ? { firstFound: bounded(textOf(info, 'FIRST_FOUND'), 40) } : {}),
            ...(textOf(info, 'LAST_FOUND') ? { lastFound: bounded(textOf(info, 'LAST_FOUND'), 40) } : {}),
            ...(numberOf(textOf(info, 'TIMES_FOUND')) !== undefined ? { timesFound: numberOf(textOf(info, 'TIMES_FOUND')) } : {}),
            ...(textOf(info, 'TICKET_NUMBER') ? { ticket: bounded(textOf(info, 'TICKET_NUMBER'), 100) } : {}),
          },
        })
      }
    }

    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name === 'SCAN') shape = 'scan'
        else if (root.name === 'ASSET_DATA_REPORT') shape = 'report'
        else
          throw new ScanParseError(
            LABEL,
            `line ${root.line}`,
            `the root element is <${root.name}>, not Qualys's <SCAN> (scan results) or <ASSET_DATA_REPORT> (host based report)`,
          )
      },
      collect: {
        'SCAN/HEADER': (node) => {
          for (const key of childrenNamed(node, 'KEY')) if (key.attributes.value) header[key.attributes.value] = bounded(textOf(key), 4_000)
        },
        'SCAN/IP': readScanHost,
        'ASSET_DATA_REPORT/HEADER': (node) => {
          header.DATE = textOf(node, 'GENERATION_DATETIME')
          header.COMPANY = bounded(textOf(node, 'COMPANY'), 300)
          header.TITLE = bounded(textOf(node, 'TEMPLATE'), 300)
          const list = child(child(node, 'TARGET'), 'COMBINED_IP_LIST')
          for (const range of childrenNamed(list, 'RANGE')) targets.push(`${textOf(range, 'START')}-${textOf(range, 'END')}`)
          for (const ip of childrenNamed(list, 'IP')) targets.push(textOf(ip))
        },
        'ASSET_DATA_REPORT/HOST_LIST/HOST': readReportHost,
        'ASSET_DATA_REPORT/GLOSSARY/VULN_DETAILS_LIST/VULN_DETAILS': (node) => {
          const qid = textOf(node, 'QID') || (node.attributes.id ?? '').replace(/^qid_/, '')
          if (qid) knowledge.set(qid, knowledgeOf(node, false))
        },
      },
    })

    // Findings once the glossary is known: one per QID and place, a repeat adding its result to the first.
    const findings: ParsedFinding[] = []
    const seen = new Map<string, ParsedFinding>()
    for (const occurrence of occurrences) {
      const where = `line ${occurrence.line}`
      const facts = knowledge.get(occurrence.qid)
      const ruleId = qualysRuleId(occurrence.qid)
      const { host } = occurrence
      const key = `${host.ip}\u001f${occurrence.port ?? 0}/${occurrence.protocol}\u001f${ruleId}`
      const same = seen.get(key)
      if (same) {
        statistics.duplicateItems!++
        keepRepeatText(same, 'moreResults', occurrence.result)
        continue
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) break
      if (!facts) notes.warn(where, `QID ${occurrence.qid}: not in the report's glossary, imported without its text`)
      const level = occurrence.severity || facts?.severity || ''
      const severity: Severity =
        occurrence.kind === 'information'
          ? 'info'
          : (SEVERITY[level] ??
            (notes.warn(where, `QID ${occurrence.qid}: severity ${JSON.stringify(level || null)} read as info`), 'info'))
      tally(statistics, `severity:${severity}`)
      const target: FindingTarget = {
        kind: 'host',
        host: host.dns || host.ip,
        ip: host.ip,
        ...(occurrence.port !== undefined ? { port: occurrence.port } : {}),
        protocol: occurrence.protocol,
      }
      const description = [facts?.threat, facts?.impact && `Impact: ${facts.impact}`].filter(Boolean).join('\n\n')
      const tags = [...((facts?.raw.tags as string[] | undefined) ?? []), ...(occurrence.kind === 'potential' ? ['potential'] : [])]
      const { tags: _tags, ...factsRaw } = facts?.raw ?? {}
      const finding: ParsedFinding = {
        ruleId,
        title: facts?.title || `QID ${occurrence.qid}`,
        severity,
        target,
        ...(facts?.cvss ? { cvss: facts.cvss } : {}),
        ...(facts?.cve.length ? { cve: facts.cve } : {}),
        ...(tags.length > 0 ? { tags } : {}),
        ...(description ? { description: bounded(description) } : {}),
        ...(facts?.solution ? { remediation: bounded(facts.solution) } : {}),
        ...(facts?.references.length ? { references: facts.references } : {}),
        ...(occurrence.result ? { evidence: bounded(occurrence.result, PARSE_LIMITS.maxEvidenceChars) } : {}),
        raw: fitRaw({
          qid: occurrence.qid,
          type: occurrence.kind,
          ...(facts?.category ? { category: facts.category } : {}),
          ...(level ? { qualysSeverity: level } : {}),
          ...(occurrence.service ? { service: occurrence.service } : {}),
          ...factsRaw,
          ...occurrence.raw,
        }),
      }
      seen.set(key, finding)
      findings.push(finding)
    }

    const assets: ParsedAsset[] = []
    for (const host of hosts) {
      if (!underLimit(assets.length, PARSE_LIMITS.assets, notes, 'file', 'assets')) break
      assets.push({
        type: 'ip',
        value: host.ip,
        ports: [...host.ports.values()],
        raw: fitRaw({ ...(host.os ? { os: host.os } : {}), ...host.raw }),
      })
      const names = new Map<string, string>()
      for (const name of [host.dns, host.netbios])
        if (name && name !== host.ip && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
      for (const name of names.values()) assets.push({ type: 'host', value: name, parent: host.ip })
    }

    if (shape === 'scan' && header.TARGET)
      targets.push(
        ...header.TARGET.split(/\s*,\s*/)
          .filter(Boolean)
          .map((t) => bounded(t, 300)),
      )
    const started = fromDateText(header.DATE)
    const duration = /^(\d+):(\d\d):(\d\d)$/.exec(header.DURATION ?? '')
    const scan: ParsedScan = {
      format: 'qualys_xml',
      tool: { name: 'Qualys VM', version: '' },
      startedAt: shape === 'scan' ? started : null,
      finishedAt:
        shape === 'scan'
          ? started !== null && duration
            ? started + ((Number(duration[1]) * 60 + Number(duration[2])) * 60 + Number(duration[3])) * 1000
            : null
          : (lastFound ?? started),
      targets: unique(targets.length > 0 ? targets : hosts.map((h) => h.ip)).slice(0, 10_000),
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
