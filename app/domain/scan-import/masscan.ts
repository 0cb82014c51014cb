// masscan's JSON (-oJ, and the ndjson of -oD) and XML (-oX). masscan writes one record per open
// port (and one per banner with --banners): records of one IP become one asset with its ports and
// banners. Its "vuln" banners (--heartbleed, --ticketbleed and the SSL probes) are the findings;
// an open port alone is not one, as in Nmap's import.
// JSON before 1.0.5 is a run of "{…},"-lines closed by "{finished: 1}", 1.0.5 wraps them in [ ]
// with a trailing comma, 1.3 writes an array: all are read record by record, never as one document.
import type { Severity } from '../template-vocabulary.ts'
import { JsonGuard, withoutBom } from './json-stream.ts'
import { int, isRecord, record, text } from './json-fields.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedPort,
  type ParsedScan,
  type ScanFormat,
  type ScanParser,
} from './parsed-scan.ts'
import { ScanCollector, fromUnixSeconds, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, xmlRootTag, type XmlNode } from './xml-stream.ts'

const JSON_LABEL = 'masscan JSON'
const XML_LABEL = 'masscan XML'

/** Banners kept on one asset; more are counted. */
const MAX_BANNERS_PER_ASSET = 100

interface VulnRule {
  pattern: RegExp
  ruleId: string
  title: string
  severity: Severity
  cve?: string
  references: string[]
}

/** What masscan's SSL probes write into a "vuln" banner. */
export const MASSCAN_VULNS: readonly VulnRule[] = [
  {
    pattern: /SSL\[HEARTBLEED\]/,
    ruleId: 'masscan:heartbleed',
    title: 'OpenSSL Heartbleed: the server leaks memory in heartbeat responses',
    severity: 'high',
    cve: 'CVE-2014-0160',
    references: ['https://nvd.nist.gov/vuln/detail/CVE-2014-0160'],
  },
  {
    pattern: /SSL\[ticketbleed\]/i,
    ruleId: 'masscan:ticketbleed',
    title: 'Ticketbleed: the TLS stack leaks memory through session ticket ids',
    severity: 'high',
    cve: 'CVE-2016-9244',
    references: ['https://nvd.nist.gov/vuln/detail/CVE-2016-9244'],
  },
  {
    pattern: /\bPOODLE\b/,
    ruleId: 'masscan:poodle',
    title: 'POODLE: SSL 3.0 with CBC ciphers is accepted',
    severity: 'low',
    cve: 'CVE-2014-3566',
    references: ['https://nvd.nist.gov/vuln/detail/CVE-2014-3566'],
  },
  {
    pattern: /SSL\[v3\]/,
    ruleId: 'masscan:sslv3',
    title: 'SSL 3.0 is accepted',
    severity: 'medium',
    references: ['https://datatracker.ietf.org/doc/html/rfc7568'],
  },
  {
    pattern: /SSL\[heartbeat\]/,
    ruleId: 'masscan:tls-heartbeat',
    title: 'The TLS heartbeat extension is enabled',
    severity: 'info',
    references: ['https://datatracker.ietf.org/doc/html/rfc6520'],
  },
]

/** Banner kinds that are facts about a port rather than its protocol. */
const NOT_A_PROTOCOL = new Set(['unknown', 'title', 'html', 'X509', 'X509CA', 'vuln', 'safe', 'error', 'versioning', 'scripting'])

/** One masscan record, whatever the output wrote it as. */
interface MasscanRecord {
  ip: string
  port: number
  protocol: string
  at: number | null
  status?: string
  ttl?: number
  service?: string
  banner?: string
}

/** Gathers the records of one file into assets and findings; the two formats share it. */
class MasscanScan {
  private readonly collector = new ScanCollector()
  private readonly hosts = new Map<
    string,
    { ports: Map<string, ParsedPort & { ttl?: number }>; banners: unknown[]; seenBanners: Set<string>; bannersOver: number }
  >()
  private readonly seenFindings = new Set<string>()
  private recordsOver = 0
  private first: number | null = null
  private last: number | null = null
  readonly statistics = { records: 0, hosts: 0, openPorts: 0, portsNotOpen: 0, banners: 0, findings: 0 }

  note(level: 'skipped' | 'warning', where: string, message: string) {
    this.collector.note(level, where, message)
  }

  add(entry: MasscanRecord, where: string) {
    this.statistics.records++
    if (entry.at !== null) {
      this.first = this.first === null ? entry.at : Math.min(this.first, entry.at)
      this.last = this.last === null ? entry.at : Math.max(this.last, entry.at)
    }
    if (entry.status !== undefined && entry.status !== 'open') {
      this.statistics.portsNotOpen++
      return
    }
    let host = this.hosts.get(entry.ip)
    if (!host) {
      if (this.hosts.size >= PARSE_LIMITS.assets) {
        this.recordsOver++
        return
      }
      host = { ports: new Map(), banners: [], seenBanners: new Set(), bannersOver: 0 }
      this.hosts.set(entry.ip, host)
    }
    const key = `${entry.port}/${entry.protocol}`
    let port = host.ports.get(key)
    if (!port) {
      port = { port: entry.port, protocol: entry.protocol, ...(entry.ttl !== undefined ? { ttl: entry.ttl } : {}) }
      host.ports.set(key, port)
    }
    if (entry.service === undefined) return
    this.statistics.banners++
    if (!NOT_A_PROTOCOL.has(entry.service)) port.service ??= entry.service
    const banner = bounded((entry.banner ?? '').trim(), PARSE_LIMITS.maxEvidenceChars)
    const seen = `${key} ${entry.service} ${banner}`
    if (host.banners.length >= MAX_BANNERS_PER_ASSET) host.bannersOver++
    else if (!host.seenBanners.has(seen)) {
      host.seenBanners.add(seen)
      host.banners.push({ port: key, service: entry.service, banner })
    }
    if (entry.service === 'vuln') this.vulnFindings(entry, banner, where)
  }

  private vulnFindings(entry: MasscanRecord, banner: string, where: string) {
    const matched = MASSCAN_VULNS.filter((rule) => rule.pattern.test(banner))
    if (matched.length === 0) this.note('warning', where, `a vuln banner masscan's probes do not write: ${bounded(banner, 200)}`)
    for (const rule of matched) {
      const key = `${entry.ip} ${entry.port}/${entry.protocol} ${rule.ruleId}`
      if (this.seenFindings.has(key)) continue
      this.seenFindings.add(key)
      this.collector.addFinding({
        ruleId: rule.ruleId,
        title: rule.title,
        severity: rule.severity,
        target: { kind: 'host', host: entry.ip, ip: entry.ip, port: entry.port, protocol: entry.protocol },
        ...(rule.cve ? { cve: [rule.cve] } : {}),
        references: rule.references,
        evidence: banner,
        raw: { banner: 'vuln', ...(entry.ttl !== undefined ? { ttl: entry.ttl } : {}) },
      })
    }
  }

  result(format: ScanFormat, version: string, times: { startedAt?: number | null; finishedAt?: number | null }): ParsedScan {
    const assets: ParsedAsset[] = []
    for (const [ip, host] of this.hosts) {
      const ports = [...host.ports.values()]
        .sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol))
        .map(({ ttl: _ttl, ...port }) => port)
      this.statistics.openPorts += ports.length
      const ttls = unique([...host.ports.values()].flatMap((p) => (p.ttl === undefined ? [] : [p.ttl])))
      assets.push({
        type: 'ip',
        value: ip,
        ports,
        raw: {
          ...(host.banners.length > 0 ? { banners: host.banners } : {}),
          ...(host.bannersOver > 0 ? { bannersNotKept: host.bannersOver } : {}),
          ...(ttls.length > 0 ? { ttl: ttls.slice(0, 10) } : {}),
        },
      })
    }
    this.statistics.hosts = this.hosts.size
    if (this.recordsOver > 0)
      this.note('skipped', 'file', `${this.recordsOver} records of hosts over the limit of ${PARSE_LIMITS.assets} were not imported`)
    for (const asset of assets) this.collector.addAsset(asset)
    this.statistics.findings = this.collector.findings.length
    return {
      format,
      tool: { name: 'masscan', version },
      startedAt: times.startedAt ?? this.first,
      finishedAt: times.finishedAt ?? this.last,
      targets: [...this.hosts.keys()],
      findings: this.collector.findings,
      assets: this.collector.assets,
      statistics: { ...this.statistics },
      notes: this.collector.finalNotes(),
    }
  }
}

const IP = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:.]*:[0-9a-f:.]*)$/i
const PROTOCOLS = new Set(['tcp', 'udp', 'sctp', 'icmp'])

/** The top-level objects of masscan's JSON of any version, each with the line it starts on. */
async function* jsonRecords(source: AsyncIterable<string>): AsyncIterable<{ text: string; line: number }> {
  let depth = 0
  let inString = false
  let escaped = false
  let line = 1
  let startLine = 1
  let pending = ''
  let guard = new JsonGuard(JSON_LABEL)
  const fail = (at: number, reason: string): never => {
    throw new ScanParseError(JSON_LABEL, `line ${at}`, reason)
  }
  for await (const chunk of withoutBom(source)) {
    let start = depth > 0 ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]
      if (c === '\n') line++
      if (depth === 0) {
        if (c === '{') {
          depth = 1
          start = i
          startLine = line
          guard = new JsonGuard(JSON_LABEL)
        } else if (c !== '[' && c !== ']' && c !== ',' && c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
          fail(line, `not masscan's JSON: "${c}" between records`)
        }
        continue
      }
      if (inString) {
        if (escaped) escaped = false
        else if (c === '\\') escaped = true
        else if (c === '"') inString = false
        continue
      }
      if (c === '"') inString = true
      else if (c === '{' || c === '[') {
        if (++depth > PARSE_LIMITS.maxDepth) fail(line, `nested deeper than ${PARSE_LIMITS.maxDepth} levels`)
      } else if (c === '}' || c === ']') {
        if (--depth === 0) {
          const whole = pending + chunk.slice(start, i + 1)
          if (whole.length > PARSE_LIMITS.maxLineChars) fail(startLine, `a record longer than ${PARSE_LIMITS.maxLineChars} characters`)
          pending = ''
          start = -1
          yield { text: guard.pass(whole), line: startLine }
        }
      }
    }
    if (depth > 0) {
      pending += chunk.slice(Math.max(start, 0))
      if (pending.length > PARSE_LIMITS.maxLineChars) fail(startLine, `a record longer than ${PARSE_LIMITS.maxLineChars} characters`)
    }
  }
  if (depth > 0) fail(line, 'the file ends in the middle of a record (is it truncated?)')
}

const FINISHED = /^\{\s*"?finished"?\s*:\s*1\s*\}$/

function recordsOfJson(value: Record<string, unknown>): MasscanRecord[] | string {
  const ip = text(value.ip, 100)
  if (!ip || !IP.test(ip)) return 'the record has no IP address'
  const at = fromUnixSeconds(text(value.timestamp, 20))
  // -oD (ndjson): one port per record, rec_type status or banner.
  if (value.rec_type !== undefined) {
    const port = int(value.port, 0, 65535)
    const protocol = text(value.proto, 10)?.toLowerCase() ?? 'tcp'
    if (port === undefined) return 'the record has no port'
    const data = record(value.data)
    if (value.rec_type === 'banner')
      return [{ ip, port, protocol, at, service: text(data.service_name, 100) ?? 'unknown', banner: text(data.banner) ?? '' }]
    return [{ ip, port, protocol, at, status: text(data.status, 20) ?? 'open', ttl: int(data.ttl, 0, 255) }]
  }
  const ports = Array.isArray(value.ports) ? value.ports : []
  if (ports.length === 0) return 'the record has no ports'
  const out: MasscanRecord[] = []
  for (const item of ports) {
    const entry = record(item)
    const port = int(entry.port, 0, 65535)
    if (port === undefined) return 'a port without a number'
    const protocol = text(entry.proto, 10)?.toLowerCase() ?? 'tcp'
    const service = isRecord(entry.service) ? entry.service : undefined
    out.push(
      service
        ? { ip, port, protocol, at, service: text(service.name, 100) ?? 'unknown', banner: text(service.banner) ?? '' }
        : { ip, port, protocol, at, status: text(entry.status, 20) ?? 'open', ttl: int(entry.ttl, 0, 255) },
    )
  }
  return out
}

export async function parseMasscanJson(source: AsyncIterable<string>): Promise<ParsedScan> {
  const scan = new MasscanScan()
  let finished = false
  for await (const { text: json, line } of jsonRecords(source)) {
    const where = `line ${line}`
    if (FINISHED.test(json)) {
      finished = true
      continue
    }
    let value: unknown
    try {
      value = JSON.parse(json)
    } catch (error) {
      throw new ScanParseError(JSON_LABEL, where, `not valid JSON: ${error instanceof Error ? error.message.slice(0, 200) : ''}`)
    }
    const records = isRecord(value) ? recordsOfJson(value) : 'the record is not an object'
    if (typeof records === 'string') {
      scan.note('skipped', where, records)
      continue
    }
    for (const entry of records) {
      if (!PROTOCOLS.has(entry.protocol)) scan.note('warning', where, `an unknown protocol "${bounded(entry.protocol, 20)}"`)
      scan.add(entry, where)
    }
  }
  const result = scan.result('masscan_json', '', {})
  return finished ? { ...result, statistics: { ...result.statistics, finishedMarker: 1 } } : result
}

export async function parseMasscanXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const scan = new MasscanScan()
  let version = ''
  let startedAt: number | null = null
  let finishedAt: number | null = null
  const readHost = (host: XmlNode) => {
    const where = `line ${host.line}`
    const address = child(host, 'address')?.attributes.addr ?? ''
    if (!IP.test(address)) {
      scan.note('skipped', where, 'a host without an IP address')
      return
    }
    const at = fromUnixSeconds(host.attributes.endtime)
    for (const port of childrenNamed(child(host, 'ports'), 'port')) {
      const number = numberOf(port.attributes.portid)
      if (number === undefined || !Number.isInteger(number) || number < 0 || number > 65535) {
        scan.note('skipped', `line ${port.line}`, 'a port without a number')
        continue
      }
      const protocol = (port.attributes.protocol || 'tcp').toLowerCase()
      const state = child(port, 'state')?.attributes ?? {}
      const service = child(port, 'service')
      const ttl = numberOf(state.reason_ttl)
      const base = { ip: address, port: number, protocol, at, ...(ttl !== undefined ? { ttl } : {}) }
      if (service) scan.add({ ...base, service: service.attributes.name || 'unknown', banner: service.attributes.banner ?? '' }, where)
      else scan.add({ ...base, status: state.state ?? 'open' }, where)
    }
  }
  await readXml(source, XML_LABEL, {
    root: (root) => {
      if (root.name !== 'nmaprun' || root.attributes.scanner !== 'masscan')
        throw new ScanParseError(
          XML_LABEL,
          `line ${root.line}`,
          `the root element is <${root.name}>, not masscan's <nmaprun scanner="masscan">`,
        )
      version = root.attributes.version ?? ''
      startedAt = fromUnixSeconds(root.attributes.start)
    },
    collect: {
      'nmaprun/host': readHost,
      'nmaprun/runstats': (runstats) => {
        finishedAt = fromUnixSeconds(child(runstats, 'finished')?.attributes.time)
      },
    },
  })
  return scan.result('masscan_xml', version, { startedAt, finishedAt })
}

export const masscanJsonParser: ScanParser = {
  format: 'masscan_json',
  label: JSON_LABEL,
  services: ['network'],
  // The keys in masscan's own order: ip, timestamp (from 1.0.4), then ports (-oJ) or port and rec_type (-oD).
  sniff: (head) =>
    /^\s*\[?\s*\{\s*"ip"\s*:\s*"[^"]*"\s*,\s*(?:"timestamp"\s*:\s*"\d+"\s*,\s*)?"ports"\s*:\s*\[\s*\{\s*"port"\s*:/.test(head) ||
    /^\s*\{"ip":"[^"]*","timestamp":"\d+","port":\d+,"proto":"\w+","rec_type":"(status|banner)"/.test(head),
  parse: parseMasscanJson,
}

export const masscanXmlParser: ScanParser = {
  format: 'masscan_xml',
  label: XML_LABEL,
  services: ['network'],
  sniff: (head) => {
    const root = xmlRootTag(head)
    return root?.name === 'nmaprun' && /\sscanner=["']masscan["']/.test(root.tag)
  },
  parse: parseMasscanXml,
}
