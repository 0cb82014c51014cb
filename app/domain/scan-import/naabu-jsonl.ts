// naabu's JSON Lines (-json): one open port per line. Every port is an asset's port; a finding is
// raised only for services that should rarely face the internet (remote shells and desktops, file
// shares, databases, caches, container APIs), listed below: an open web port is not an exposure.
import type { Severity } from '../template-vocabulary.ts'
import { epochMs, int, isRecord, Notes, text, underLimit } from './json-fields.ts'
import { jsonLines } from './json-stream.ts'
import { PARSE_LIMITS, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { Inventory } from './surface-assets.ts'

const LABEL = 'naabu JSONL'

/** Ports whose exposure is a finding, with the service and how bad an open one is. */
export const RISKY_PORTS: Record<number, { service: string; severity: Severity }> = {
  21: { service: 'ftp', severity: 'medium' },
  23: { service: 'telnet', severity: 'high' },
  445: { service: 'smb', severity: 'high' },
  1433: { service: 'mssql', severity: 'medium' },
  2375: { service: 'docker', severity: 'critical' },
  3306: { service: 'mysql', severity: 'medium' },
  3389: { service: 'rdp', severity: 'medium' },
  5432: { service: 'postgresql', severity: 'medium' },
  5900: { service: 'vnc', severity: 'high' },
  6379: { service: 'redis', severity: 'high' },
  9200: { service: 'elasticsearch', severity: 'high' },
  11211: { service: 'memcached', severity: 'high' },
  27017: { service: 'mongodb', severity: 'high' },
}

export const naabuJsonlParser: ScanParser = {
  format: 'naabu_jsonl',
  label: LABEL,
  services: ['projectmariana'],
  sniff(head) {
    const first = head.trimStart().split('\n', 1)[0] ?? ''
    return /^\{.*"ip"\s*:\s*"/.test(first) && /"port"\s*:\s*\d/.test(first) && !/"(url|template-id|templateID|status_code)"\s*:/.test(first)
  },
  async parse(source) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const inventory = new Inventory()
    const seen = new Set<string>()
    let records = 0
    let first: number | null = null
    let last: number | null = null
    for await (const { value, line } of jsonLines(source, LABEL)) {
      records++
      const where = `line ${line}`
      if (!isRecord(value)) {
        notes.skip(where, 'the line is not an object')
        continue
      }
      const ip = text(value.ip, 100)
      const host = text(value.host, 300)
      const port = int(value.port, 1, 65535)
      if (!(ip ?? host) || port === undefined) {
        notes.skip(where, 'the line has no ip or host, or no port between 1 and 65535')
        continue
      }
      const protocol = text(value.protocol, 10)?.toLowerCase() ?? 'tcp'
      const at = epochMs(value.timestamp)
      if (at !== null) {
        first = first === null ? at : Math.min(first, at)
        last = last === null ? at : Math.max(last, at)
      }
      const risky = RISKY_PORTS[port]
      const portInfo = { port, protocol, service: risky?.service ?? (value.tls === true ? 'tls' : undefined) }
      if (ip) inventory.addName(ip, { ports: [portInfo] })
      if (host && host !== ip) inventory.addName(host, { ports: [portInfo] })
      const name = host ?? ip ?? ''
      const key = `${name} ${ip} ${port}/${protocol}`
      if (seen.has(key)) continue
      seen.add(key)
      if (!risky || protocol !== 'tcp') continue
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) continue
      findings.push({
        ruleId: `exposed-${risky.service}`,
        title: `${risky.service.toUpperCase()} port open to the scanner (${port}/${protocol})`,
        severity: risky.severity,
        target: { kind: 'host', host: name, ip: ip && ip !== name ? ip : undefined, port, protocol },
        evidence: `${name}:${port} open`,
        raw: { tls: value.tls === true },
      })
    }
    const scan: ParsedScan = {
      format: 'naabu_jsonl',
      tool: { name: 'naabu', version: '' },
      startedAt: first,
      finishedAt: last,
      targets: [...new Set([...seen].map((key) => key.split(' ')[0] ?? ''))],
      findings,
      assets: inventory.list(),
      statistics: { records, openPorts: seen.size, findings: findings.length, skipped: notes.skipped, assetsNotKept: inventory.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
