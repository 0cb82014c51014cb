// kube-hunter's JSON report (`kube-hunter --report json`): the nodes found (type and address), the
// Kubernetes services on them (Kubelet API, API Server, etcd ... at address:port) and the
// vulnerabilities, each with its location (a service's address or "Local to Pod (<name>)"), its KHV
// id, category, severity, description, evidence, the hunter that found it and its Aqua
// vulnerability database link. One finding per vulnerability and location (rule id
// kube-hunter:<KHV id>, or the vulnerability's name where the id is "None"); the nodes are assets
// with the services as their ports.
import type { Severity } from '../template-vocabulary.ts'
import { isRecord, Notes, tally, text, underLimit } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { unique } from './scan-collector.ts'

const LABEL = 'kube-hunter JSON'

const SEVERITY: Record<string, Severity> = { high: 'high', medium: 'medium', low: 'low' }

/** KHV002 and the like; a vulnerability without an id ("None") by its name. */
export function kubeHunterRuleId(vid: string | undefined, name: string): string {
  const id = vid?.trim()
  return id && !/^none$/i.test(id) ? `kube-hunter:${id.toUpperCase()}` : `kube-hunter:${bounded(name.trim().toLowerCase(), 200)}`
}

/** "10.0.1.1:10250" as an address and a port; anything else (a pod) as it is. */
function addressOf(location: string): { ip: string; port?: number } | null {
  const m = /^\[?([0-9a-f.:]+?)\]?:(\d{1,5})$/i.exec(location)
  if (m?.[1] && m[2]) {
    const port = Number(m[2])
    return port > 0 && port <= 65_535 ? { ip: m[1], port } : { ip: m[1] }
  }
  return /^[0-9a-f.:]+$/i.test(location) && /[.:]/.test(location) ? { ip: location } : null
}

export const kubeHunterJsonParser: ScanParser = {
  format: 'kube_hunter_json',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (!/^\s*\{/.test(head) || !/"vulnerabilities"\s*:\s*\[/.test(head)) return false
    return /"nodes"\s*:\s*\[/.test(head) && /"services"\s*:\s*\[/.test(head) && !/"matches"\s*:|"SchemaVersion"\s*:/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = { nodes: 0, services: 0, vulnerabilities: 0, duplicates: 0 }
    const services = new Map<string, string>()
    const nodes = new Map<string, { type: string; ports: Map<number, string> }>()
    const seen = new Set<string>()
    let sawSection = false

    const node = (ip: string) => {
      let known = nodes.get(ip)
      if (!known) nodes.set(ip, (known = { type: '', ports: new Map() }))
      return known
    }

    const paths = ['$.nodes.*', '$.services.*', '$.vulnerabilities.*']
    const pending: { value: Record<string, unknown>; path: string }[] = []
    for await (const { value, path } of streamJsonValues(input, { formatLabel: LABEL, paths })) {
      sawSection = true
      if (!isRecord(value)) {
        notes.skip(path, 'the entry is not an object')
        continue
      }
      if (path.startsWith('$.nodes[')) {
        statistics.nodes!++
        const location = text(value.location, 300)
        const address = location ? addressOf(location) : null
        if (address) node(address.ip).type ||= text(value.type, 100) ?? ''
      } else if (path.startsWith('$.services[')) {
        statistics.services!++
        const location = text(value.location, 300)
        const name = text(value.service, 200) ?? ''
        if (!location) continue
        services.set(location, name)
        const address = addressOf(location)
        if (address?.port) node(address.ip).ports.set(address.port, name)
      } else {
        statistics.vulnerabilities!++
        // Services may be listed after the vulnerabilities: findings are made at the end.
        pending.push({ value, path })
      }
    }
    if (!sawSection) throw new ScanParseError(LABEL, 'file', 'no nodes, services or vulnerabilities: not a kube-hunter report')

    for (const { value, path } of pending) {
      const name = text(value.vulnerability, 500)
      const location = text(value.location, 500) ?? ''
      if (!name) {
        notes.skip(path, 'a vulnerability without a name')
        continue
      }
      const vid = text(value.vid, 20)
      const ruleId = kubeHunterRuleId(vid, name)
      const key = `${ruleId}\u001f${location}`
      if (seen.has(key)) {
        statistics.duplicates!++
        continue
      }
      seen.add(key)
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) break
      const severityText = text(value.severity, 20)?.toLowerCase() ?? ''
      const severity =
        SEVERITY[severityText] ??
        (notes.warn(path, `${name}: severity ${JSON.stringify(value.severity ?? null)} read as info`), 'info' as const)
      tally(statistics, `severity:${severity}`)
      const category = text(value.category, 300)
      const address = addressOf(location)
      const service = services.get(location) ?? (/^Local to Pod/i.test(location) ? 'Pod' : 'Kubernetes')
      const reference = text(value.avd_reference, 2_048)
      const evidence = text(value.evidence, PARSE_LIMITS.maxEvidenceChars)
      findings.push({
        ruleId,
        title: name,
        severity,
        target: {
          kind: 'cloud',
          provider: 'kubernetes',
          account: '',
          region: '',
          cloudService: bounded(service, 200),
          resource: bounded(location || 'cluster', 2_048),
        },
        ...(category
          ? {
              tags: unique(
                category
                  .split('//')
                  .map((c) => c.trim())
                  .filter(Boolean),
              ).slice(0, 5),
            }
          : {}),
        ...(text(value.description) ? { description: text(value.description)!.replace(/\n\s+/g, '\n') } : {}),
        ...(reference && /^https?:\/\//i.test(reference) ? { references: [reference] } : {}),
        ...(evidence && evidence !== 'none' ? { evidence } : {}),
        raw: fitRaw({
          vid: vid ?? null,
          location,
          ...(category ? { category } : {}),
          ...(text(value.hunter, 200) ? { hunter: text(value.hunter, 200) } : {}),
          ...(address ? { ip: address.ip } : {}),
        }),
      })
    }

    const assets: ParsedAsset[] = []
    for (const [ip, { type, ports }] of nodes) {
      if (!underLimit(assets.length, PARSE_LIMITS.assets, notes, 'file', 'assets')) break
      assets.push({
        type: 'ip',
        value: bounded(ip, 300),
        ports: [...ports].map(([port, service]) => ({ port, protocol: 'tcp', ...(service ? { service: bounded(service, 100) } : {}) })),
        ...(type ? { raw: { nodeType: bounded(type, 100) } } : {}),
      })
    }

    const scan: ParsedScan = {
      format: 'kube_hunter_json',
      tool: { name: 'kube-hunter', version: '' },
      startedAt: null,
      finishedAt: null,
      targets: [...nodes.keys()],
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
