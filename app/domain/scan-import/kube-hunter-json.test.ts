import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { kubeHunterJsonParser, kubeHunterRuleId } from './kube-hunter-json.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'

const text = (name: string) => fixtureText('kube_hunter_json', name)
const parse = (name: string, chunk?: number) => parseText(kubeHunterJsonParser, text(name), chunk)

describe('kubeHunterJsonParser on public reports', () => {
  it('kubehunter_many_vul.json: each vulnerability at its location and service, KHV ids as rule ids, nodes and services as assets', async () => {
    const scan = await parse('kubehunter_many_vul.json', 300)
    expect(scan.tool).toEqual({ name: 'kube-hunter', version: '' })
    expect(scan.statistics).toMatchObject({ nodes: 2, services: 3, vulnerabilities: 8, findings: 8 })
    expect(severityCounts(scan)).toEqual({ high: 2, medium: 3, low: 3 })
    expect(scan.findings.map((f) => f.ruleId)).toEqual([
      'kube-hunter:KHV050',
      'kube-hunter:cap_net_raw enabled',
      "kube-hunter:access to pod's secrets",
      'kube-hunter:KHV044',
      'kube-hunter:KHV043',
      'kube-hunter:KHV052',
      'kube-hunter:KHV002',
      'kube-hunter:KHV005',
    ])
    expect(scan.findings[3]).toEqual({
      ruleId: 'kube-hunter:KHV044',
      title: 'Privileged Container',
      severity: 'high',
      target: {
        kind: 'cloud',
        provider: 'kubernetes',
        account: '',
        region: '',
        cloudService: 'Kubelet API (readonly)',
        resource: '10.0.1.1:10255',
      },
      tags: ['Privilege Escalation', 'Privileged container'],
      description: 'A Privileged container exist on a node\ncould expose the node/cluster to unwanted root operations',
      references: ['https://avd.aquasec.com/kube-hunter/khv044/'],
      evidence: 'pod: kube-proxy, container: kube-proxy, count: 1',
      raw: {
        vid: 'KHV044',
        location: '10.0.1.1:10255',
        category: 'Privilege Escalation // Privileged container',
        hunter: 'Kubelet Readonly Ports Hunter',
        ip: '10.0.1.1',
      },
    })
    expect(scan.findings[0]?.target).toMatchObject({ cloudService: 'Pod', resource: 'Local to Pod (kube-hunter-5pmjs)' })
    expect(scan.findings[7]?.target).toMatchObject({ cloudService: 'Kubernetes', resource: '10.16.0.1:443' })
    expect(scan.assets).toEqual([
      { type: 'ip', value: '10.1.1.1', ports: [], raw: { nodeType: 'Node/Master' } },
      { type: 'ip', value: '10.2.2.0', ports: [], raw: { nodeType: 'Node/Master' } },
      {
        type: 'ip',
        value: '10.0.1.1',
        ports: [
          { port: 10255, protocol: 'tcp', service: 'Kubelet API (readonly)' },
          { port: 10250, protocol: 'tcp', service: 'Kubelet API' },
        ],
      },
      { type: 'ip', value: '10.0.0.1', ports: [{ port: 443, protocol: 'tcp', service: 'API Server' }] },
    ])
  })

  it('dupe.json: the same vulnerability twice at one location is one finding; zero and one vulnerability reports', async () => {
    const dupe = await parse('dupe.json')
    expect(dupe.findings).toHaveLength(1)
    expect(dupe.statistics.duplicates).toBe(1)
    expect((await parse('kubehunter_one_vul.json')).findings.map((f) => f.ruleId)).toEqual(['kube-hunter:KHV044'])
    expect(await parse('kubehunter_zero_vul.json')).toMatchObject({ findings: [], statistics: { nodes: 2, vulnerabilities: 0 } })
  })

  it('an unknown severity is info and said; ids are upper case, an id "None" the name', async () => {
    const scan = await parseText(
      kubeHunterJsonParser,
      '{"nodes": [], "services": [], "vulnerabilities": [{"location": "192.0.2.90:2379", "vid": "khv031", "category": "Exposed", "severity": "critical?", "vulnerability": "Etcd Remote Write Access Event", "description": "", "evidence": "none", "hunter": "Etcd Remote Access"}]}',
    )
    expect(scan.findings[0]).toMatchObject({ ruleId: 'kube-hunter:KHV031', severity: 'info', target: { resource: '192.0.2.90:2379' } })
    expect(scan.findings[0]?.evidence).toBeUndefined()
    expect(scan.notes.map((n) => n.message)).toEqual(['Etcd Remote Write Access Event: severity "critical?" read as info'])
    expect(kubeHunterRuleId('None', 'CAP_NET_RAW Enabled')).toBe('kube-hunter:cap_net_raw enabled')
  })
})

describe('kube-hunter findings in the cloud service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    const first = await parse('kubehunter_many_vul.json')
    expect(await parse('kubehunter_many_vul.json', 41)).toEqual(first)
    const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('cloud', f)))
    expect(new Set(ids).size).toBe(first.findings.length)
  })

  it("is offered on the cloud page and recognised by content: every kube-hunter file, and no other format's file", () => {
    expect(formatsForService('cloud').map((p) => p.format)).toContain('kube_hunter_json')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'kube_hunter_json', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'kube_hunter_json',
      )
  })
})

describe('kubeHunterJsonParser refuses', () => {
  const refusal = (json: string) =>
    parseText(kubeHunterJsonParser, json, 64).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated file, nesting past the limit and another JSON, with the format and line in words', async () => {
    const cut = text('kubehunter_many_vul.json').slice(0, 1_000)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^kube-hunter JSON, line \d+/)
    const deep = `{"vulnerabilities": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}${']'.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `kube-hunter JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"results": []}')).resolves.toMatchObject({
      message: 'kube-hunter JSON, file: no nodes, services or vulnerabilities: not a kube-hunter report',
    })
  })
})
