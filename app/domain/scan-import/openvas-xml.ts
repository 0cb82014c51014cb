// OpenVAS and Greenbone (GVM) XML reports: the old OpenVAS report (omp, nvt/cve, bid and xref), the
// GMP report (report inside report) and GVM 22's get_reports_response around it (nvt/refs,
// nvt/solution, severities). One finding per result, rated from its CVSS score; Log and Debug results
// are skipped with the reason, as are results the report marks false positives.
import type { Severity } from '../template-vocabulary.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { ScanCollector, fromDateText, severityFromScore, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'OpenVAS XML'

const THREATS: Record<string, Severity> = { critical: 'critical', high: 'high', medium: 'medium', low: 'low' }
const SKIPPED_THREATS: Record<string, string> = {
  log: 'a log result (informational output of a check)',
  debug: 'a debug result',
  'false positive': 'marked a false positive in the report',
  error: 'an error result (the check could not run)',
}

/** The tags field: "summary=...|insight=...|solution=..." as an object. */
function tagsOf(text: string): Record<string, string> {
  const tags: Record<string, string> = {}
  for (const part of text.split('|')) {
    const equals = part.indexOf('=')
    if (equals > 0) tags[part.slice(0, equals).trim()] = part.slice(equals + 1).trim()
  }
  return tags
}

/** "443/tcp" → 443 and tcp; "general/tcp" → tcp without a port. */
function portOf(text: string): { port?: number; protocol?: string } {
  const match = /^(\d+|general|package)\/(\w+)/i.exec(text.trim())
  if (!match) return {}
  const port = numberOf(match[1])
  return { ...(port !== undefined && port > 0 ? { port } : {}), protocol: match[2]?.toLowerCase() }
}

const listOf = (text: string, none: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item && item !== none)

function cvssOf(nvt: XmlNode | undefined, tags: Record<string, string>, score: number | undefined) {
  const fromSeverities = childrenNamed(child(nvt, 'severities'), 'severity')
    .map((s) => textOf(s, 'value'))
    .find(Boolean)
  const vector = fromSeverities || tags.cvss_base_vector || ''
  if (!vector || score === undefined) return undefined
  const version = /^CVSS:(\d\.\d)\//.exec(vector)?.[1] ?? '2.0'
  return { version, vector: bounded(vector, 256), score }
}

/** The hosts' text without its children's: "10.0.0.1<asset/><hostname>x</hostname>". */
const ownText = (node: XmlNode | undefined) => (node?.text ?? '').trim()

export async function parseOpenvasXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const statistics: Record<string, number> = { results: 0, skipped: 0, hosts: 0 }
  let version = ''
  let startedAt: number | null = null
  let finishedAt: number | null = null
  let reportName = ''
  const hostTargets: string[] = []
  const hostNames = new Map<string, string>()
  const ports = new Map<string, Map<string, { port: number; protocol: string }>>()
  const hostRaw = new Map<string, Record<string, unknown>>()

  const readResult = (result: XmlNode) => {
    statistics.results = (statistics.results ?? 0) + 1
    const where = `result ${statistics.results} (line ${result.line})`
    const nvt = child(result, 'nvt')
    const oid = nvt?.attributes.oid ?? ''
    const title = textOf(result, 'name') || textOf(nvt, 'name')
    const threat = textOf(result, 'threat').toLowerCase()
    const skipped = SKIPPED_THREATS[threat]
    if (skipped) {
      statistics.skipped = (statistics.skipped ?? 0) + 1
      collector.note('skipped', where, `${bounded(title, 200) || oid}: ${skipped}`)
      return
    }
    const hostNode = child(result, 'host')
    const ip = ownText(hostNode)
    if (!ip || !oid) {
      collector.note('skipped', where, 'a result without a host or an NVT')
      return
    }
    const hostname = textOf(hostNode, 'hostname')
    if (hostname) hostNames.set(ip, hostname)
    const portText = textOf(result, 'port')
    const { port, protocol } = portOf(portText)
    if (port !== undefined) {
      const seen = ports.get(ip) ?? new Map<string, { port: number; protocol: string }>()
      seen.set(`${port}/${protocol ?? 'tcp'}`, { port, protocol: protocol ?? 'tcp' })
      ports.set(ip, seen)
    }
    const tags = tagsOf(textOf(nvt, 'tags'))
    const score =
      numberOf(textOf(result, 'severity')) ?? numberOf(child(nvt, 'severities')?.attributes.score) ?? numberOf(textOf(nvt, 'cvss_base'))
    const severity = score !== undefined && score > 0 ? severityFromScore(score) : (THREATS[threat] ?? 'info')
    const refs = childrenNamed(child(nvt, 'refs'), 'ref')
    const cves = unique([
      ...refs.filter((r) => r.attributes.type?.toLowerCase() === 'cve').map((r) => r.attributes.id ?? ''),
      ...listOf(textOf(nvt, 'cve'), 'NOCVE'),
    ]).filter(Boolean)
    const urls = unique([
      ...refs.filter((r) => r.attributes.type?.toLowerCase() === 'url').map((r) => r.attributes.id ?? ''),
      ...listOf(textOf(nvt, 'xref'), 'NOXREF')
        .filter((x) => x.startsWith('URL:'))
        .map((x) => x.slice(4)),
    ]).filter(Boolean)
    const advisories = refs
      .filter((r) => !['cve', 'url'].includes(r.attributes.type?.toLowerCase() ?? ''))
      .map((r) => `${r.attributes.type}:${r.attributes.id}`)
    const solution = textOf(nvt, 'solution') || tags.solution || ''
    const description = [tags.summary, tags.insight && `Insight: ${tags.insight}`, tags.impact && `Impact: ${tags.impact}`]
      .filter(Boolean)
      .join('\n\n')
    const cvss = cvssOf(nvt, tags, score)
    const qod = numberOf(textOf(child(result, 'qod'), 'value'))
    collector.addFinding({
      ruleId: oid,
      title: bounded(title || oid),
      severity,
      target: { kind: 'host', host: hostname || ip, ip, ...(port !== undefined ? { port } : {}), ...(protocol ? { protocol } : {}) },
      ...(cvss ? { cvss } : {}),
      ...(cves.length > 0 ? { cve: cves.slice(0, 200) } : {}),
      ...(description ? { description: bounded(description) } : {}),
      ...(solution ? { remediation: bounded(solution.replace(/\s*\n\s*/g, ' ')) } : {}),
      ...(urls.length > 0 ? { references: urls.slice(0, 100).map((u) => bounded(u)) } : {}),
      ...(textOf(result, 'description') ? { evidence: bounded(textOf(result, 'description'), PARSE_LIMITS.maxEvidenceChars) } : {}),
      raw: {
        resultId: result.attributes.id ?? null,
        port: portText,
        threat: textOf(result, 'threat'),
        family: textOf(nvt, 'family') || null,
        qod: qod ?? null,
        qodType: textOf(child(result, 'qod'), 'type') || null,
        solutionType: child(nvt, 'solution')?.attributes.type ?? tags.solution_type ?? null,
        ...(textOf(nvt, 'risk_factor') ? { riskFactor: textOf(nvt, 'risk_factor') } : {}),
        ...(tags.affected ? { affected: bounded(tags.affected) } : {}),
        ...(tags.vuldetect ? { detection: bounded(tags.vuldetect) } : {}),
        ...(advisories.length > 0 ? { advisories: advisories.slice(0, 100) } : {}),
        ...(listOf(textOf(nvt, 'bid'), 'NOBID').length > 0 ? { bid: listOf(textOf(nvt, 'bid'), 'NOBID') } : {}),
        ...(textOf(result, 'original_threat') ? { originalThreat: textOf(result, 'original_threat') } : {}),
      },
    })
  }

  const readHost = (host: XmlNode) => {
    const ip = textOf(host, 'ip')
    if (!ip) return
    statistics.hosts = (statistics.hosts ?? 0) + 1
    hostTargets.push(ip)
    const details = Object.fromEntries(childrenNamed(host, 'detail').map((d) => [textOf(d, 'name'), textOf(d, 'value')]))
    if (details.hostname && !hostNames.has(ip)) hostNames.set(ip, details.hostname)
    hostRaw.set(ip, {
      ...(details.best_os_txt ? { os: bounded(details.best_os_txt) } : {}),
      ...(details.best_os_cpe ? { osCpe: bounded(details.best_os_cpe) } : {}),
      startedAt: fromDateText(textOf(host, 'start')),
      finishedAt: fromDateText(textOf(host, 'end')),
    })
  }

  let roots = 0
  await readXml(source, LABEL, {
    root: (root) => {
      if (root.name !== 'report' && root.name !== 'get_reports_response') {
        throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <report> or <get_reports_response>`)
      }
      if (root.name === 'get_reports_response' && root.attributes.status && !root.attributes.status.startsWith('2')) {
        throw new ScanParseError(
          LABEL,
          `line ${root.line}`,
          `the response failed: ${root.attributes.status} ${root.attributes.status_text ?? ''}`.trim(),
        )
      }
    },
    open: {
      '//report': () => roots++,
    },
    collect: {
      '//results/result': readResult,
      '//report/host': readHost,
      '//report/gmp/version': (node) => (version = textOf(node)),
      '//report/omp/version': (node) => (version = textOf(node)),
      '//report/task/name': (node) => (reportName ||= textOf(node)),
      '//report/scan_start': (node) => (startedAt = fromDateText(textOf(node)) ?? startedAt),
      '//report/scan_end': (node) => (finishedAt = fromDateText(textOf(node)) ?? finishedAt),
      // The old format gives a host's times beside the results.
      '//report/host_start': (node) => {
        const ip = textOf(node, 'host')
        if (ip && !hostTargets.includes(ip)) hostTargets.push(ip)
      },
    },
  })
  if (roots === 0) throw new ScanParseError(LABEL, 'file', 'no <report> element')

  const resultHosts = new Set([...ports.keys(), ...hostNames.keys()])
  for (const finding of collector.findings) if (finding.target.kind === 'host' && finding.target.ip) resultHosts.add(finding.target.ip)
  const ips = unique([...hostTargets, ...resultHosts])
  for (const ip of ips) {
    const hostname = hostNames.get(ip)
    collector.addAsset({ type: 'ip', value: bounded(ip), ports: [...(ports.get(ip)?.values() ?? [])], raw: hostRaw.get(ip) ?? {} })
    if (hostname) collector.addAsset({ type: 'host', value: bounded(hostname), parent: ip })
  }
  return {
    format: 'openvas_xml',
    tool: { name: 'OpenVAS', version },
    startedAt,
    finishedAt,
    targets: ips,
    findings: collector.findings,
    assets: collector.assets,
    statistics: { ...statistics, findings: collector.findings.length, hosts: ips.length },
    notes: collector.finalNotes(),
  }
}

export const openvasXmlParser: ScanParser = {
  format: 'openvas_xml',
  label: LABEL,
  services: ['network'],
  // <report> is a common word: it counts only with an OpenVAS or GMP mark near the start.
  sniff: (head) => {
    const root = xmlRootTag(head)
    if (root?.name === 'get_reports_response') return /<report\b/.test(head)
    if (root?.name !== 'report') return false
    return (
      /\sformat_id=["']a994b278-1f62-11e1-96ac-406186ea4fc5["']/.test(root.tag) ||
      /<(gmp|omp)>\s*<version>/.test(head) ||
      /<nvt oid="1\.3\.6\.1\.4\.1\.25623\./.test(head)
    )
  },
  parse: parseOpenvasXml,
}
