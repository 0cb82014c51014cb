// Nmap's grepable output (-oG), and masscan's, which borrows it: one line per host and field
// ("Host: 192.0.2.1 (name)\tPorts: 22/open/tcp//ssh//OpenSSH 8.9p1/, …\tIgnored State: closed (998)").
// Hosts that are up become assets with their open ports, services and versions; their names become
// host assets. The format has no room for scripts, so, as with Nmap XML without scripts, nothing
// here is a finding. Each port entry is seven fields ending in "/": Nmap writes a "/" inside a
// version as "|", so an entry ends at its seventh "/" even when its version holds ", ".
import { targetsFromArgs } from './nmap-xml.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedPort,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { ScanCollector, fromDateText, fromUnixSeconds, unique } from './scan-collector.ts'
import { numberedLines } from './text-source.ts'

const LABEL = 'Nmap grepable'

const NMAP_HEADER = /^# Nmap (\S+) scan initiated (.+?) as: (.*)$/
const MASSCAN_HEADER = /^# Masscan (\S+) scan initiated (.+)$/
const DONE = /^# (?:Nmap|Masscan) done at (.+?)(?: -- (\d+) IP address(?:es)? \((\d+) hosts? up\))?(?: scanned in .*)?$/
const HOST = /^Host: (\S+) \(([^)]*)\)$/
/** One entry of a Ports field: port/state/protocol/owner/service/rpc/version/ (masscan leaves off the last "/"). */
const PORT_ENTRY = /(\d{1,5})\/([a-z|]+)\/([a-z]*)\/([^/]*)\/([^/]*)\/([^/]*)\/([^/]*?)(?:\/(?:, |$)|$)/y

interface HostEntry {
  ip: string
  name: string
  ports: Map<string, ParsedPort>
  os?: string
  ignored?: string
  up: boolean
  banners: unknown[]
}

/** The port entries of a Ports field, or the column where the field stops making sense. */
export function portEntries(field: string): { entries: string[][]; badAt: number | null } {
  const entries: string[][] = []
  PORT_ENTRY.lastIndex = 0
  while (PORT_ENTRY.lastIndex < field.length) {
    const at = PORT_ENTRY.lastIndex
    const match = PORT_ENTRY.exec(field)
    if (!match) return { entries, badAt: at }
    entries.push(match.slice(1))
  }
  return { entries, badAt: null }
}

export async function parseNmapGrepable(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const hosts = new Map<string, HostEntry>()
  const statistics = { lines: 0, hostsUp: 0, hostsNotUp: 0, openPorts: 0, portsNotOpen: 0, ignoredPorts: 0, banners: 0 }
  let tool = { name: 'nmap', version: '' }
  let startedAt: number | null = null
  let finishedAt: number | null = null
  let args = ''
  let headerSeen = false
  let hostsOver = 0

  const hostFor = (ip: string, name: string): HostEntry | null => {
    const known = hosts.get(ip)
    if (known) {
      if (!known.name && name) known.name = name
      return known
    }
    if (hosts.size >= PARSE_LIMITS.assets) {
      hostsOver++
      return null
    }
    const entry: HostEntry = { ip, name, ports: new Map(), up: false, banners: [] }
    hosts.set(ip, entry)
    return entry
  }

  for await (const { line, number } of numberedLines(source, LABEL)) {
    const where = `line ${number}`
    if (!line.trim()) continue
    statistics.lines++
    if (line.startsWith('#')) {
      const nmap = NMAP_HEADER.exec(line)
      const masscan = MASSCAN_HEADER.exec(line)
      const done = DONE.exec(line)
      if (nmap || masscan) {
        headerSeen = true
        tool = { name: nmap ? 'nmap' : 'masscan', version: bounded((nmap ?? masscan)?.[1], 50) }
        startedAt = fromDateText((nmap ?? masscan)?.[2])
        if (nmap) args = bounded(nmap[3])
      } else if (done) finishedAt = fromDateText(done[1])
      continue
    }
    if (!headerSeen && number === 1)
      throw new ScanParseError(LABEL, where, 'the file does not start with "# Nmap … scan initiated" or "# Masscan … scan initiated"')
    const fields = line.split('\t')
    // masscan puts "Timestamp: <seconds>" first.
    const timestamp = fields[0]?.startsWith('Timestamp: ') ? fromUnixSeconds(fields.shift()?.slice(11)) : null
    if (timestamp !== null) {
      startedAt = startedAt === null ? timestamp : Math.min(startedAt, timestamp)
    }
    const host = HOST.exec(fields[0] ?? '')
    if (!host?.[1]) {
      collector.note('skipped', where, 'a line that is neither a comment nor a "Host:" line')
      continue
    }
    const entry = hostFor(host[1], host[2] ?? '')
    if (!entry) continue
    for (const field of fields.slice(1)) {
      const colon = field.indexOf(': ')
      const name = colon < 0 ? field : field.slice(0, colon)
      const value = colon < 0 ? '' : field.slice(colon + 2)
      if (name === 'Status') {
        if (value === 'Up') entry.up = true
      } else if (name === 'Ports') {
        entry.up = true
        const { entries, badAt } = portEntries(value)
        if (badAt !== null) collector.note('warning', where, `the Ports field could not be read after column ${badAt + 1}`)
        for (const [port, state, protocol, , service, , version] of entries) {
          const number = Number(port)
          if (number > 65535) continue
          if (state !== 'open') {
            statistics.portsNotOpen++
            continue
          }
          const key = `${number}/${protocol || 'tcp'}`
          if (entry.ports.has(key)) continue
          entry.ports.set(key, {
            port: number,
            protocol: protocol || 'tcp',
            ...(service ? { service: bounded(service.replaceAll('|', '/'), 200) } : {}),
            ...(version ? { product: bounded(version.replaceAll('|', '/'), 500) } : {}),
          })
        }
      } else if (name === 'Ignored State') {
        entry.ignored = bounded(value, 100)
        statistics.ignoredPorts += Number(/\((\d+)\)/.exec(value)?.[1] ?? 0)
      } else if (name === 'OS') entry.os = bounded(value, 500)
      else if (name === 'Port' || name === 'Service' || name === 'Banner') {
        // masscan's banner lines: Host, Port, Service, Banner.
        if (name === 'Banner' && entry.banners.length < 100) {
          statistics.banners++
          const port = fields.find((f) => f.startsWith('Port: '))?.slice(6) ?? ''
          const kind = fields.find((f) => f.startsWith('Service: '))?.slice(9) ?? ''
          entry.banners.push({ port: bounded(port, 10), service: bounded(kind, 50), banner: bounded(value, PARSE_LIMITS.maxEvidenceChars) })
        }
        entry.up = true
      }
    }
  }
  if (!headerSeen) throw new ScanParseError(LABEL, 'line 1', 'the file is empty')

  const assets: ParsedAsset[] = []
  for (const entry of hosts.values()) {
    if (!entry.up) {
      statistics.hostsNotUp++
      continue
    }
    statistics.hostsUp++
    const ports = [...entry.ports.values()].sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol))
    statistics.openPorts += ports.length
    assets.push({
      type: 'ip',
      value: entry.ip,
      ports,
      technologies: unique(ports.flatMap((p) => (p.product ? [p.product] : []))),
      raw: {
        ...(entry.name ? { hostnames: [entry.name] } : {}),
        ...(entry.os ? { os: { name: entry.os } } : {}),
        ...(entry.ignored ? { ignoredState: entry.ignored } : {}),
        ...(entry.banners.length > 0 ? { banners: entry.banners } : {}),
      },
    })
    if (entry.name) assets.push({ type: 'host', value: bounded(entry.name), parent: entry.ip })
  }
  for (const asset of assets) collector.addAsset(asset)
  if (hostsOver > 0)
    collector.note('skipped', 'file', `${hostsOver} lines of hosts over the limit of ${PARSE_LIMITS.assets} were not imported`)
  const fromArgs = targetsFromArgs(args)
  return {
    format: 'nmap_grepable',
    tool,
    startedAt,
    finishedAt,
    targets: unique(fromArgs.length > 0 ? fromArgs : [...hosts.values()].filter((h) => h.up).map((h) => h.ip)).map((t) => bounded(t)),
    findings: [],
    assets: collector.assets,
    statistics: { ...statistics, findings: 0 },
    notes: collector.finalNotes(),
  }
}

export const nmapGrepableParser: ScanParser = {
  format: 'nmap_grepable',
  label: LABEL,
  services: ['network'],
  sniff: (head) => {
    if (/^# Masscan \S+ scan initiated .+\n# Ports scanned: /.test(head)) return true
    if (!/^# Nmap \S+ scan initiated .+ as: /.test(head)) return false
    // Nmap's normal output (-oN) starts with the same comment; its hosts are "Nmap scan report for" blocks.
    if (/\nNmap scan report for /.test(head)) return false
    return /\nHost: \S+ \([^)\n]*\)\t(Status|Ports|Protocols): /.test(head) || /\n# Nmap done at /.test(head)
  },
  parse: parseNmapGrepable,
}
