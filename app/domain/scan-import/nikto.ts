// Nikto's XML (-Format xml: <niktoscan> in 2.1, <niktoscans> from 2.5) and JSON (-Format json: one
// host object in 2.1, an array of hosts from 2.5). Every item is a finding at its URL and method,
// rule id nikto:<test id>; items of one test at one URL and method (the "uncommon header" test
// reports each header) are one finding with each message kept. Nikto rates nothing: an item that
// names a CVE is medium, Nikto's informational tests (headers retrieved, methods allowed, the
// server identified) are info, the rest low. Each host is an asset with its port and banner.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, isRecord, text } from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanFormat,
  type ScanParser,
} from './parsed-scan.ts'
import { ScanCollector, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const XML_LABEL = 'Nikto XML'
const JSON_LABEL = 'Nikto JSON'

/** Nikto's tests that describe the server rather than a weakness. */
const INFO_TESTS = new Set(['999986', '999990', '999100', '999996', '999967', '999991', '999992'])
const INFO_MESSAGE = /^(Retrieved |Allowed HTTP Methods|Server: |Uncommon header|.*\bidentifies this server as\b|.*\bcontains \d+ entr)/i

export function niktoSeverity(id: string, message: string, cves: string[]): Severity {
  if (cves.length > 0) return 'medium'
  if (INFO_TESTS.has(id) || INFO_MESSAGE.test(message)) return 'info'
  return 'low'
}

interface NiktoHost {
  host: string
  ip: string
  port: number | undefined
  banner: string
  /** The site's root as Nikto named it: https://host:443/ */
  site: string
}

interface NiktoItem {
  id: string
  method: string
  uri: string
  url: string
  message: string
  references: string[]
  osvdb?: string
  where: string
}

const URL_LIKE = /^https?:\/\/[^/:\s]+(:\d+)?(\/|$)/i

/** The item's URL: its namelink when it is a whole URL, else the site's root joined with its uri. */
function itemUrl(host: NiktoHost, uri: string, namelink: string): string {
  if (URL_LIKE.test(namelink)) return normalUrl(namelink)
  const root = host.site.replace(/\/+$/, '')
  if (!uri) return host.site
  return normalUrl(/^https?:\/\//i.test(uri) ? uri : `${root}${uri.startsWith('/') ? '' : '/'}${uri}`)
}

/** A URL as the WHATWG parser writes it (no default port), so Nikto's XML and JSON of one scan agree. */
function normalUrl(url: string): string {
  try {
    return new URL(url).href
  } catch {
    return url
  }
}

function siteOf(host: Pick<NiktoHost, 'host' | 'ip' | 'port'>, ssl?: boolean): string {
  const secure = ssl ?? (host.port === 443 || host.port === 8443)
  const port = host.port ?? (secure ? 443 : 80)
  const name = host.host || host.ip
  const defaultPort = (secure && port === 443) || (!secure && port === 80)
  return `${secure ? 'https' : 'http'}://${name}${defaultPort ? '' : `:${port}`}/`
}

const referencesOf = (value: string | undefined) =>
  unique((value ?? '').split(/[\s,]+/).filter((ref) => /^https?:\/\//i.test(ref))).slice(0, 50)

/** Findings and assets of one file: both formats hand it hosts and items. */
class NiktoScan {
  readonly collector = new ScanCollector()
  private readonly findings = new Map<string, ParsedFinding>()
  private readonly assets = new Map<string, ParsedAsset>()
  readonly targets: string[] = []
  private findingsOver = 0
  readonly statistics = { hosts: 0, items: 0, mergedItems: 0, findings: 0 }

  addHost(host: NiktoHost) {
    this.statistics.hosts++
    if (host.site && !this.targets.includes(host.site)) this.targets.push(bounded(host.site))
    const name = host.host || host.ip
    if (!name) return
    const key = `${name} ${host.ip}`
    const known = this.assets.get(key)
    const port =
      host.port === undefined ? [] : [{ port: host.port, protocol: 'tcp', service: host.site.startsWith('https') ? 'https' : 'http' }]
    if (known) {
      for (const p of port) if (!known.ports?.some((k) => k.port === p.port)) known.ports?.push(p)
      return
    }
    if (this.assets.size >= PARSE_LIMITS.assets) return
    this.assets.set(key, {
      type: 'host',
      value: bounded(name),
      ports: port,
      technologies: host.banner ? [bounded(host.banner, 500)] : [],
      raw: { ...(host.ip && host.ip !== name ? { ip: bounded(host.ip, 100) } : {}) },
    })
  }

  addItem(host: NiktoHost, item: NiktoItem) {
    this.statistics.items++
    if (!item.id) {
      this.collector.note('skipped', item.where, 'an item without a Nikto test id')
      return
    }
    const method = (item.method || 'GET').toUpperCase()
    const key = `${item.id} ${method} ${item.url}`
    // Nikto 2.5 may start a message with its uri: "/: X-Frame-Options header is deprecated …".
    const said = item.uri && item.message.startsWith(`${item.uri}:`) ? item.message.slice(item.uri.length + 1).trim() : item.message
    const message = bounded(said, PARSE_LIMITS.maxEvidenceChars)
    const known = this.findings.get(key)
    const cves = cveIds([said, ...item.references])
    if (known) {
      this.statistics.mergedItems++
      if (!(known.evidence ?? '').split('\n').includes(message)) {
        known.evidence = bounded(`${known.evidence ?? ''}\n${message}`, PARSE_LIMITS.maxEvidenceChars)
        const more = (known.evidence.match(/\n/g) ?? []).length
        known.title = bounded(`${known.description ?? ''}`.split('\n')[0] ?? '', 280) + ` (and ${more} more)`
      }
      known.cve = unique([...(known.cve ?? []), ...cves])
      if (known.cve.length === 0) delete known.cve
      return
    }
    if (this.findings.size >= PARSE_LIMITS.findings) {
      this.findingsOver++
      return
    }
    this.findings.set(key, {
      ruleId: `nikto:${bounded(item.id, 50)}`,
      title: bounded(said || `Nikto test ${item.id}`, 300),
      severity: niktoSeverity(item.id, said, cves),
      target: { kind: 'url', url: bounded(item.url, 2000), method: bounded(method, 20) },
      ...(cves.length > 0 ? { cve: cves } : {}),
      description: bounded(said),
      ...(item.references.length > 0 ? { references: item.references } : {}),
      evidence: message,
      raw: {
        uri: bounded(item.uri, 2000),
        ...(item.osvdb && item.osvdb !== '0' ? { osvdb: bounded(item.osvdb, 20) } : {}),
        ...(host.banner ? { banner: bounded(host.banner, 500) } : {}),
      },
    })
  }

  result(format: ScanFormat, version: string, startedAt: number | null, finishedAt: number | null): ParsedScan {
    for (const finding of this.findings.values()) this.collector.addFinding(finding)
    if (this.findingsOver > 0)
      this.collector.note(
        'skipped',
        'file',
        `${this.findingsOver} items over the limit of ${PARSE_LIMITS.findings} findings were not imported`,
      )
    this.statistics.findings = this.findings.size
    return {
      format,
      tool: { name: 'Nikto', version: bounded(version, 50) },
      startedAt,
      finishedAt,
      targets: this.targets,
      findings: this.collector.findings,
      assets: [...this.assets.values()],
      statistics: { ...this.statistics },
      notes: this.collector.finalNotes(),
    }
  }
}

/** Nikto's own dates: "2020-11-14 19:24:57" (the scanner's local time, read as UTC) or "… +0100" from 2.5. */
function niktoDate(value: string | undefined): number | null {
  const match = value ? /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?: ([+-]\d{4}))?$/.exec(value.trim()) : null
  if (!match) return null
  const ms = Date.parse(`${match[1]}T${match[2]}${match[3] ? `${match[3].slice(0, 3)}:${match[3].slice(3)}` : 'Z'}`)
  return Number.isFinite(ms) && ms > 0 ? ms : null
}

export async function parseNiktoXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const scan = new NiktoScan()
  let version = ''
  let startedAt: number | null = null
  let finishedAt: number | null = null
  const readDetails = (details: XmlNode) => {
    const a = details.attributes
    const port = numberOf(a.targetport)
    const sitename = a.sitename && URL_LIKE.test(a.sitename) ? a.sitename : ''
    const siteip = a.siteip && URL_LIKE.test(a.siteip) ? a.siteip : ''
    const host: NiktoHost = {
      host: a.hostheader || a.targethostname || a.targetip || '',
      ip: a.targetip ?? '',
      port,
      banner: a.targetbanner ?? '',
      site: '',
    }
    host.site = normalUrl(sitename || siteip || siteOf(host, child(details, 'ssl') !== undefined))
    scan.addHost(host)
    const started = niktoDate(a.starttime)
    if (started !== null) startedAt = startedAt === null ? started : Math.min(startedAt, started)
    const ended = niktoDate(child(details, 'statistics')?.attributes.endtime)
    if (ended !== null) finishedAt = finishedAt === null ? ended : Math.max(finishedAt, ended)
    for (const item of childrenNamed(details, 'item')) {
      const uri = textOf(item, 'uri')
      scan.addItem(host, {
        id: item.attributes.id ?? '',
        method: item.attributes.method ?? '',
        uri,
        url: itemUrl(host, uri, textOf(item, 'namelink')),
        // Some 2.1 reports wrap the text in a second "CDATA[…]".
        message: textOf(item, 'description')
          .replace(/^CDATA\[/, '')
          .replace(/\]$/, ''),
        references: unique([
          ...referencesOf(textOf(item, 'references')),
          ...referencesOf(item.attributes.osvdblink).filter((r) => !/osvdb\.org\/0$/.test(r)),
        ]),
        osvdb: item.attributes.osvdbid,
        where: `line ${item.line}`,
      })
    }
  }
  await readXml(source, XML_LABEL, {
    root: (root) => {
      if (root.name !== 'niktoscan' && root.name !== 'niktoscans')
        throw new ScanParseError(XML_LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <niktoscan> or <niktoscans>`)
    },
    open: {
      '//niktoscan': (node) => {
        version ||= node.attributes.version ?? ''
      },
    },
    collect: { '//scandetails': readDetails },
  })
  return scan.result('nikto_xml', version, startedAt, finishedAt)
}

export async function parseNiktoJson(input: AsyncIterable<string>): Promise<ParsedScan> {
  const scan = new NiktoScan()
  const { first, source } = await peekSource(input)
  if (first !== '{' && first !== '[') throw new ScanParseError(JSON_LABEL, 'line 1', 'neither a Nikto host object nor an array of them')
  const prefix = first === '[' ? '$.*' : '$'
  const fields = ['host', 'ip', 'port', 'banner', 'server_banner', 'start_time', 'end_time']
  const paths = [...fields.map((f) => `${prefix}.${f}`), `${prefix}.vulnerabilities.*`]
  // Nikto 2.1 wrote its keys in any order: a host's items are filed once the whole host is read.
  const hosts = new Map<string, Record<string, unknown>>()
  const items: { hostKey: string; value: unknown; where: string }[] = []
  for await (const { value, path } of streamJsonValues(source, { formatLabel: JSON_LABEL, paths })) {
    const match = /^\$(\[\d+\])?\.(\w+)(\[\d+\])?$/.exec(path)
    const hostKey = match?.[1] ?? ''
    const field = match?.[2] ?? ''
    if (field === 'vulnerabilities') {
      if (items.length < PARSE_LIMITS.findings * 2) items.push({ hostKey, value, where: path })
      continue
    }
    const host = hosts.get(hostKey) ?? {}
    host[field] = value
    hosts.set(hostKey, host)
  }
  const known = new Map<string, NiktoHost>()
  let startedAt: number | null = null
  let finishedAt: number | null = null
  const hostFor = (hostKey: string): NiktoHost => {
    const existing = known.get(hostKey)
    if (existing) return existing
    const fieldsOf = hosts.get(hostKey) ?? {}
    const port = numberOf(text(fieldsOf.port, 10))
    const host: NiktoHost = {
      host: text(fieldsOf.host, 300) ?? '',
      ip: text(fieldsOf.ip, 100) ?? '',
      port,
      banner: text(fieldsOf.server_banner, 500) ?? text(fieldsOf.banner, 500) ?? '',
      site: '',
    }
    host.site = siteOf(host)
    const started = niktoDate(text(fieldsOf.start_time, 50))
    const ended = niktoDate(text(fieldsOf.end_time, 50))
    if (started !== null) startedAt = startedAt === null ? started : Math.min(startedAt, started)
    if (ended !== null) finishedAt = finishedAt === null ? ended : Math.max(finishedAt, ended)
    known.set(hostKey, host)
    scan.addHost(host)
    return host
  }
  for (const hostKey of hosts.keys()) hostFor(hostKey)
  for (const { hostKey, value, where } of items) {
    const host = hostFor(hostKey)
    if (!isRecord(value)) {
      scan.collector.note('skipped', where, 'the item is not an object')
      continue
    }
    const uri = text(value.url, 2000) ?? ''
    scan.addItem(host, {
      id: text(value.id, 50) ?? '',
      method: text(value.method, 20) ?? '',
      uri,
      url: itemUrl(host, uri, ''),
      message: text(value.msg) ?? '',
      references: referencesOf(text(value.references)),
      osvdb: text(value.OSVDB, 20),
      where,
    })
  }
  return scan.result('nikto_json', '', startedAt, finishedAt)
}

export const niktoXmlParser: ScanParser = {
  format: 'nikto_xml',
  label: XML_LABEL,
  services: ['dast'],
  sniff: (head) => {
    const root = xmlRootTag(head)
    return root?.name === 'niktoscan' || root?.name === 'niktoscans'
  },
  parse: parseNiktoXml,
}

export const niktoJsonParser: ScanParser = {
  format: 'nikto_json',
  label: JSON_LABEL,
  services: ['dast'],
  sniff: (head) => {
    if (!/^\s*[[{]/.test(head) || /"scanResult"\s*:/.test(head)) return false
    const start = head.slice(0, 4000)
    return (
      /"host"\s*:\s*"/.test(start) &&
      /"ip"\s*:\s*"/.test(start) &&
      /"port"\s*:\s*"?\d/.test(start) &&
      /"(server_)?banner"\s*:/.test(start) &&
      /"vulnerabilities"\s*:\s*\[/.test(head)
    )
  },
  parse: parseNiktoJson,
}
