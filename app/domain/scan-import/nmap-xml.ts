// Nmap's XML output (-oX): hosts that are up with their addresses, names, open ports, services and
// OS guess become assets; NSE scripts become findings: vulners (one per CVE, rated by its CVSS),
// ssl-cert (a certificate asset) and the vuln-category scripts (Nmap's vulns library tables when
// present, else the script's output). Other scripts' output is kept on the host's asset.
import type { Severity } from '../template-vocabulary.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type FindingTarget,
  type ParsedAsset,
  type ParsedPort,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { ScanCollector, fromDateText, fromUnixSeconds, severityFromScore, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Nmap XML'

// NSE's vuln category, by name: scripts that report a weakness rather than describe a service.
const VULN_SCRIPT_NAME = /(^|-)vuln(s|-|$)|backdoor|^ssl-(heartbleed|poodle|ccs-injection|dh-params|known-key)$|^sslv2-drown$/
const VULN_SCRIPTS = new Set([
  'tls-ticketbleed',
  'http-slowloris-check',
  'http-shellshock',
  'http-csrf',
  'http-stored-xss',
  'http-dombased-xss',
  'http-phpself-xss',
  'http-sql-injection',
  'http-method-tamper',
  'http-aspnet-debug',
  'http-trace',
  'http-git',
  'http-passwd',
  'http-frontpage-login',
  'ftp-libopie',
  'distcc-cve2004-2687',
  'clamav-exec',
  'ipmi-cipher-zero',
  'supermicro-ipmi-conf',
  'realvnc-auth-bypass',
  'rsa-vuln-roca',
  'afp-path-vuln',
  'smb-double-pulsar-backdoor',
  'mysql-vuln-cve2012-2122',
  'qconn-exec',
  'rmi-vuln-classloader',
  'vulscan',
])

const isVulnScript = (id: string) => VULN_SCRIPTS.has(id) || VULN_SCRIPT_NAME.test(id)

/** An NSE script's structured output as plain values: keyed tables are objects, unkeyed ones arrays. */
function scriptValue(node: XmlNode): unknown {
  if (node.name === 'elem') return node.text
  const entries = node.children.filter((c) => c.name === 'elem' || c.name === 'table')
  if (entries.every((c) => c.attributes.key === undefined)) return entries.map(scriptValue)
  return Object.fromEntries(entries.map((c, index) => [c.attributes.key ?? String(index), scriptValue(c)]))
}

const keyed = (node: XmlNode | undefined, key: string): XmlNode | undefined => node?.children.find((c) => c.attributes.key === key)
const keyedText = (node: XmlNode | undefined, key: string): string => textOf(keyed(node, key))

interface HostContext {
  ip: string
  host: string
  where: string
}

function targetOf(context: HostContext, port?: ParsedPort): FindingTarget {
  return { kind: 'host', host: context.host, ip: context.ip, ...(port ? { port: port.port, protocol: port.protocol } : {}) }
}

const CVE = /^CVE-\d{4}-\d{4,}$/i

interface VulnersEntry {
  id: string
  score: number | undefined
  type: string
  exploit: boolean
  line: string
}

function vulnersEntries(script: XmlNode): VulnersEntry[] {
  const lines = (script.attributes.output ?? '').split('\n')
  const lineOf = (id: string) => lines.find((line) => line.trim().split('\t')[0] === id)?.trim() ?? ''
  const tables = script.children.filter((c) => c.name === 'table').flatMap((cpe) => childrenNamed(cpe, 'table'))
  if (tables.length > 0) {
    return tables.map((table) => {
      const id = keyedText(table, 'id')
      return {
        id,
        score: numberOf(keyedText(table, 'cvss')),
        type: keyedText(table, 'type'),
        exploit: keyedText(table, 'is_exploit') === 'true',
        line: lineOf(id),
      }
    })
  }
  // Older vulners versions write only the text: "\tCVE-2018-15919\t5.0\thttps://vulners.com/cve/CVE-2018-15919".
  return lines.flatMap((line) => {
    const [id, score, url, flag] = line.trim().split('\t')
    if (!id || !url?.startsWith('http')) return []
    return [{ id, score: numberOf(score), type: CVE.test(id) ? 'cve' : '', exploit: flag === '*EXPLOIT*', line: line.trim() }]
  })
}

const productOf = (port: ParsedPort) => [port.product, port.version].filter(Boolean).join(' ')

function vulnersFindings(collector: ScanCollector, script: XmlNode, context: HostContext, port: ParsedPort | undefined): number {
  const entries = vulnersEntries(script)
  const exploits = entries.filter((entry) => entry.exploit)
  const software = port ? productOf(port) : ''
  for (const entry of entries) {
    if (entry.type !== 'cve' && !CVE.test(entry.id)) continue
    const cve = entry.id.toUpperCase()
    const exploitRefs = exploits
      .filter((e) => e.id.toUpperCase().includes(cve))
      .map((e) => `https://vulners.com/search?query=${encodeURIComponent(e.id)}`)
    collector.addFinding({
      ruleId: cve,
      title: software ? `${cve} in ${software}` : cve,
      severity: entry.score === undefined ? 'medium' : severityFromScore(entry.score),
      target: targetOf(context, port),
      cve: [cve],
      tags: exploitRefs.length > 0 ? ['exploit-available'] : undefined,
      references: [`https://vulners.com/cve/${cve}`, ...exploitRefs].slice(0, 20),
      evidence: bounded(entry.line || `${entry.id}\t${entry.score ?? ''}`, PARSE_LIMITS.maxEvidenceChars),
      raw: { script: 'vulners', cvssScore: entry.score ?? null, service: port?.service ?? null, product: software || null },
    })
  }
  return entries.length
}

const DN_SHORT: Record<string, string> = {
  commonName: 'CN',
  organizationName: 'O',
  organizationalUnitName: 'OU',
  countryName: 'C',
  localityName: 'L',
}

/** "CN=R3, O=Let's Encrypt, C=US" from ssl-cert's issuer table. */
function distinguishedName(table: XmlNode | undefined): string {
  return childrenNamed(table, 'elem')
    .map((elem) => `${DN_SHORT[elem.attributes.key ?? ''] ?? elem.attributes.key}=${elem.text.trim()}`)
    .join(', ')
}

function certificateAsset(script: XmlNode, context: HostContext, port: ParsedPort | undefined): ParsedAsset | null {
  const output = script.attributes.output ?? ''
  const fromOutput = (label: string) => new RegExp(`^${label}:\\s*(.+)$`, 'm').exec(output)?.[1]?.trim() ?? ''
  const subject = keyed(script, 'subject')
  const commonName = keyedText(subject, 'commonName') || /commonName=([^/\n]+)/.exec(fromOutput('Subject'))?.[1]?.trim() || ''
  const sha1 = keyedText(script, 'sha1') || fromOutput('SHA-1').replace(/\s/g, '')
  const value = commonName || sha1
  if (!value) return null
  const validity = keyed(script, 'validity')
  const notAfter = fromDateText(keyedText(validity, 'notAfter') || fromOutput('Not valid after'))
  return {
    type: 'certificate',
    value: bounded(value),
    parent: port ? `${context.ip}:${port.port}` : context.ip,
    notAfter,
    issuer: bounded(distinguishedName(keyed(script, 'issuer')) || fromOutput('Issuer').replaceAll('/', ', ')),
    raw: {
      sha1: sha1 || null,
      notBefore: fromDateText(keyedText(validity, 'notBefore') || fromOutput('Not valid before')),
      subjectAltName: fromOutput('Subject Alternative Name') || null,
    },
  }
}

const RISK = /Risk factor:\s*(critical|high|medium|low|none|info)/i
const CVSS_SCORE = /CVSS(?:v[234](?:\.\d)?)?:?\s*(\d+(?:\.\d)?)/i
const NOT_VULNERABLE = /\bNOT VULNERABLE\b/i
const VULNERABLE = /(^|[^T] )VULNERABLE\b/

function severityOfText(text: string): Severity | undefined {
  const risk = RISK.exec(text)?.[1]?.toLowerCase()
  if (risk) return risk === 'none' ? 'info' : (risk as Severity)
  const score = CVSS_SCORE.exec(text)?.[1]
  return score === undefined ? undefined : severityFromScore(Number(score))
}

const SEVERITY_ORDER: Severity[] = ['info', 'low', 'medium', 'high', 'critical']
const worst = (severities: Severity[]): Severity | undefined =>
  severities.reduce<Severity | undefined>(
    (a, b) => (a === undefined || SEVERITY_ORDER.indexOf(b) > SEVERITY_ORDER.indexOf(a) ? b : a),
    undefined,
  )

/** The vulns library's tables (those with a "state"), anywhere in a script's output. */
function vulnTables(node: XmlNode): XmlNode[] {
  const tables = node.children.filter((c) => c.name === 'table')
  return tables.flatMap((table) => (keyed(table, 'state') ? [table] : vulnTables(table)))
}

/** A vuln-category script's finding, or null when it says the target is not vulnerable. */
function vulnScriptFinding(
  collector: ScanCollector,
  script: XmlNode,
  context: HostContext,
  port: ParsedPort | undefined,
): 'finding' | 'not vulnerable' {
  const id = script.attributes.id ?? ''
  const output = script.attributes.output ?? ''
  const tables = vulnTables(script)
  const vulnerable = tables.filter((t) => /VULNERABLE/i.test(keyedText(t, 'state')) && !NOT_VULNERABLE.test(keyedText(t, 'state')))
  const saysNo =
    /^(false|)$/i.test(output.trim()) || (NOT_VULNERABLE.test(output) && !VULNERABLE.test(output.replaceAll(/\bNOT VULNERABLE\b/gi, '')))
  if (tables.length > 0 ? vulnerable.length === 0 : saysNo) {
    return 'not vulnerable'
  }
  const severities: Severity[] = []
  const cves: string[] = []
  const references: string[] = []
  const titles: string[] = []
  const descriptions: string[] = []
  for (const table of vulnerable) {
    titles.push(keyedText(table, 'title') || table.attributes.key || '')
    for (const ref of childrenNamed(keyed(table, 'ids'), 'elem')) {
      const cve = /CVE-\d{4}-\d{4,}/i.exec(ref.text)?.[0]
      if (cve) cves.push(cve.toUpperCase())
    }
    const scores = keyed(table, 'scores')
    const score = numberOf(keyedText(scores, 'CVSSv3') || keyedText(scores, 'CVSSv2') || keyedText(scores, 'CVSS'))
    const risk = keyedText(table, 'risk_factor')
    if (score !== undefined) severities.push(severityFromScore(score))
    else if (risk) severities.push(severityOfText(`Risk factor: ${risk}`) ?? 'medium')
    else if (VULNERABLE.test(output)) severities.push(severityOfText(output) ?? 'medium')
    const description = keyed(table, 'description')
    descriptions.push(description ? [description.text, ...childrenNamed(description, 'elem').map((e) => e.text)].join('\n').trim() : '')
    references.push(...childrenNamed(keyed(table, 'refs'), 'elem').map((e) => e.text.trim()))
  }
  const fromText = VULNERABLE.test(output) ? severityOfText(output) : undefined
  if (vulnerable.length === 0 && fromText) severities.push(fromText)
  for (const cve of output.match(/CVE-\d{4}-\d{4,}/gi) ?? []) cves.push(cve.toUpperCase())
  const title = unique(titles.filter(Boolean)).join('; ')
  collector.addFinding({
    ruleId: id,
    title: bounded(title || `Nmap ${id}`),
    severity: worst(severities) ?? 'medium',
    target: targetOf(context, port),
    cve: cves.length > 0 ? unique(cves) : undefined,
    description: bounded(unique(descriptions.filter(Boolean)).join('\n\n')) || undefined,
    references:
      references.length > 0
        ? unique(references.filter(Boolean))
            .slice(0, 50)
            .map((r) => bounded(r))
        : undefined,
    evidence: bounded(output.trim(), PARSE_LIMITS.maxEvidenceChars),
    raw: { script: id, ...(port ? { service: port.service ?? null } : {}) },
  })
  return 'finding'
}

/** Targets as the command line named them: its arguments that are neither options nor their values. */
const OPTIONS_WITH_VALUE = new Set(
  (
    '-p -oX -oN -oG -oS -oA -oM -iL -iR -e -S -D -g -sI -b --script --script-args --script-args-file --exclude --excludefile --top-ports ' +
    '--port-ratio --min-rate --max-rate --max-retries --host-timeout --data-length --data --data-string --ttl --source-port --min-hostgroup ' +
    '--max-hostgroup --min-parallelism --max-parallelism --scan-delay --max-scan-delay --datadir --stylesheet --script-timeout ' +
    '--dns-servers --proxies --spoof-mac --resume --version-intensity --mtu --min-rtt-timeout --max-rtt-timeout --initial-rtt-timeout ' +
    '--exclude-ports --servicedb --versiondb --append-output --ip-options'
  ).split(' '),
)

export function targetsFromArgs(args: string): string[] {
  const words = args.trim().split(/\s+/).slice(1)
  const targets: string[] = []
  for (let index = 0; index < words.length; index++) {
    const word = words[index] ?? ''
    if (word.startsWith('-')) {
      if (OPTIONS_WITH_VALUE.has(word)) index++
      continue
    }
    targets.push(word)
  }
  return targets
}

function hostContext(host: XmlNode): { context: HostContext; addresses: XmlNode[]; hostnames: string[] } | null {
  const addresses = childrenNamed(host, 'address')
  const ip = addresses.find((a) => a.attributes.addrtype === 'ipv4' || a.attributes.addrtype === 'ipv6' || a.attributes.addrtype === 'ip')
  const mac = addresses.find((a) => a.attributes.addrtype === 'mac')
  const address = ip?.attributes.addr ?? mac?.attributes.addr
  if (!address) return null
  const hostnames = unique(childrenNamed(child(host, 'hostnames'), 'hostname').map((h) => h.attributes.name ?? '')).filter(Boolean)
  return { context: { ip: address, host: hostnames[0] ?? address, where: `line ${host.line}` }, addresses, hostnames }
}

export async function parseNmapXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const statistics = {
    hostsUp: 0,
    hostsNotUp: 0,
    openPorts: 0,
    portsNotOpen: 0,
    scripts: 0,
    vulnersEntries: 0,
    notVulnerable: 0,
    certificates: 0,
  }
  let tool = { name: 'nmap', version: '' }
  let startedAt: number | null = null
  let finishedAt: number | null = null
  let args = ''
  const hostTargets: string[] = []
  const seenAssets = new Set<string>()
  const addAsset = (asset: ParsedAsset) => {
    const key = `${asset.type}\u001f${asset.value}\u001f${asset.parent ?? ''}`
    if (seenAssets.has(key)) return
    seenAssets.add(key)
    collector.addAsset(asset)
  }

  const readScript = (script: XmlNode, context: HostContext, port: ParsedPort | undefined, kept: unknown[]) => {
    const id = script.attributes.id ?? ''
    statistics.scripts++
    const output = script.attributes.output ?? ''
    if (id === 'vulners') {
      statistics.vulnersEntries += vulnersFindings(collector, script, context, port)
      return
    }
    if (id === 'ssl-cert') {
      const certificate = certificateAsset(script, context, port)
      if (certificate) {
        statistics.certificates++
        addAsset(certificate)
      } else collector.note('warning', `line ${script.line}`, 'ssl-cert output without a subject or fingerprint')
      return
    }
    if (/^ERROR: Script execution failed/i.test(output.trim())) {
      collector.note('skipped', `line ${script.line}`, `${id}: the script failed`)
      return
    }
    if (isVulnScript(id) || vulnTables(script).length > 0) {
      if (vulnScriptFinding(collector, script, context, port) === 'not vulnerable') statistics.notVulnerable++
      return
    }
    const structured = script.children.length > 0 ? scriptValue(script) : undefined
    kept.push({
      id,
      ...(port ? { port: `${port.port}/${port.protocol}` } : {}),
      output: bounded(output, PARSE_LIMITS.maxEvidenceChars),
      ...(structured === undefined ? {} : { structured }),
    })
  }

  const readHost = (host: XmlNode) => {
    const state = child(host, 'status')?.attributes.state
    if (state !== undefined && state !== 'up') {
      statistics.hostsNotUp++
      return
    }
    const found = hostContext(host)
    if (!found) {
      collector.note('skipped', `line ${host.line}`, 'a host without an address')
      return
    }
    statistics.hostsUp++
    const { context, addresses, hostnames } = found
    hostTargets.push(context.ip)
    const scripts: unknown[] = []
    const ports: ParsedPort[] = []
    for (const portNode of childrenNamed(child(host, 'ports'), 'port')) {
      const portState = child(portNode, 'state')?.attributes.state
      const number = numberOf(portNode.attributes.portid)
      if (number === undefined) {
        collector.note('skipped', `line ${portNode.line}`, 'a port without a number')
        continue
      }
      if (portState !== 'open') {
        statistics.portsNotOpen++
        continue
      }
      statistics.openPorts++
      const service = child(portNode, 'service')
      const port: ParsedPort = {
        port: number,
        protocol: portNode.attributes.protocol || 'tcp',
        ...(service?.attributes.name ? { service: service.attributes.name } : {}),
        ...(service?.attributes.product ? { product: service.attributes.product } : {}),
        ...(service?.attributes.version ? { version: service.attributes.version } : {}),
      }
      ports.push(port)
      for (const script of childrenNamed(portNode, 'script')) readScript(script, context, port, scripts)
    }
    for (const script of childrenNamed(child(host, 'hostscript'), 'script')) readScript(script, context, undefined, scripts)
    const osMatch = childrenNamed(child(host, 'os'), 'osmatch')[0]
    const mac = addresses.find((a) => a.attributes.addrtype === 'mac')
    addAsset({
      type: 'ip',
      value: context.ip,
      ports,
      technologies: unique(ports.map(productOf).filter(Boolean)),
      raw: {
        ...(hostnames.length > 0 ? { hostnames } : {}),
        ...(mac ? { mac: mac.attributes.addr, macVendor: mac.attributes.vendor ?? null } : {}),
        ...(osMatch ? { os: { name: osMatch.attributes.name ?? '', accuracy: numberOf(osMatch.attributes.accuracy) ?? null } } : {}),
        ...(scripts.length > 0 ? { scripts } : {}),
        startedAt: fromUnixSeconds(host.attributes.starttime),
        finishedAt: fromUnixSeconds(host.attributes.endtime),
      },
    })
    for (const name of hostnames) addAsset({ type: 'host', value: bounded(name), parent: context.ip })
  }

  await readXml(source, LABEL, {
    root: (root) => {
      if (root.name !== 'nmaprun') throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <nmaprun>`)
      tool = { name: root.attributes.scanner || 'nmap', version: root.attributes.version ?? '' }
      startedAt = fromUnixSeconds(root.attributes.start)
      args = root.attributes.args ?? ''
    },
    collect: {
      'nmaprun/host': readHost,
      'nmaprun/runstats': (runstats) => {
        finishedAt = fromUnixSeconds(child(runstats, 'finished')?.attributes.time)
      },
    },
  })

  const fromArgs = targetsFromArgs(args)
  return {
    format: 'nmap_xml',
    tool,
    startedAt,
    finishedAt,
    targets: unique(fromArgs.length > 0 ? fromArgs : hostTargets).map((t) => bounded(t)),
    findings: collector.findings,
    assets: collector.assets,
    statistics: { ...statistics, findings: collector.findings.length },
    notes: collector.finalNotes(),
  }
}

export const nmapXmlParser: ScanParser = {
  format: 'nmap_xml',
  label: LABEL,
  services: ['network', 'projectmariana'],
  // masscan writes <nmaprun scanner="masscan"> with other fields: not this format.
  sniff: (head) => {
    const root = xmlRootTag(head)
    return root?.name === 'nmaprun' && /\sscanner=["']nmap["']/.test(root.tag)
  },
  parse: parseNmapXml,
}
