import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { benchmarkOf, kubeBenchJsonParser } from './kube-bench-json.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'

const text = (name: string) => fixtureText('kube_bench_json', name)
const parse = (name: string, chunk?: number) => parseText(kubeBenchJsonParser, text(name), chunk)

describe('kubeBenchJsonParser on public reports', () => {
  it('kube-bench-controls.json ({Controls, Totals}, CIS 1.6): FAIL and WARN results as findings on their node type, the totals kept', async () => {
    const scan = await parse('kube-bench-controls.json', 2_000)
    expect(scan.tool).toEqual({ name: 'kube-bench', version: '' })
    expect(scan.targets).toEqual(['master', 'etcd', 'controlplane', 'node', 'policies'])
    expect(scan.statistics).toMatchObject({
      controls: 5,
      checks: 122,
      'status:pass': 37,
      'status:fail': 36,
      'status:warn': 49,
      'totals:fail': 36,
      findings: 85,
    })
    expect(severityCounts(scan)).toEqual({ medium: 36, info: 49 })
    const profiling = scan.findings.find((f) => f.ruleId === 'kube-bench:cis-1.6:1.3.2')
    expect(profiling).toMatchObject({
      title: '1.3.2 Ensure that the --profiling argument is set to false (Automated)',
      severity: 'medium',
      target: { kind: 'cloud', provider: 'kubernetes', account: '', region: '', cloudService: 'Control plane node', resource: 'master' },
      tags: ['cis-1.6'],
      evidence: "Actual value: actual value\nExpected: '--profiling' is present\nAudit: /bin/ps -ef | grep kube-controller | grep -v grep",
      raw: { status: 'FAIL', scored: true, benchmark: 'cis-1.6', nodeType: 'master', section: '1.3' },
    })
    expect(profiling?.remediation).toMatch(/^Edit the Controller Manager pod specification file/)
    expect(scan.findings.find((f) => f.raw.status === 'WARN')?.tags).toContain('manual-check')
    expect(scan.assets.map((a) => [a.type, a.value, a.cloud?.cloudService])).toEqual([
      ['cloud_resource', 'master', 'Control plane node'],
      ['cloud_resource', 'etcd', 'etcd'],
      ['cloud_resource', 'controlplane', 'Control plane'],
      ['cloud_resource', 'node', 'Worker node'],
      ['cloud_resource', 'policies', 'Policies'],
    ])
  })

  it('kube-bench-report-many-vuln.json (a bare array, CIS 1.5): an unscored failure is low', async () => {
    const scan = await parse('kube-bench-report-many-vuln.json')
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['kube-bench:cis-1.5:3.1.1', 'low'],
      ['kube-bench:cis-1.5:4.1.2', 'medium'],
      ['kube-bench:cis-1.5:4.1.5', 'medium'],
      ['kube-bench:cis-1.5:4.2.11', 'medium'],
    ])
    expect(scan.findings[0]?.tags).toEqual(['cis-1.5', 'not-scored'])
  })

  it('kube-bench-report-zero-vuln.json: every check passed is an empty scan with its node type', async () => {
    const scan = await parse('kube-bench-report-zero-vuln.json')
    expect(scan.findings).toEqual([])
    expect(scan.statistics).toMatchObject({ checks: 23, 'status:pass': 23 })
  })
})

describe('kubeBenchJsonParser on kube-bench 0.8 (synthetic)', () => {
  it('the benchmark named as written (cis-1.8), the reason and the audit config as evidence, the Kubernetes version kept', async () => {
    const scan = await parse('synthetic-kube-bench-0.8.json', 100)
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['kube-bench:cis-1.8:1.2.1', 'info'],
      ['kube-bench:cis-1.8:1.2.5', 'medium'],
      ['kube-bench:cis-1.8:4.2.6', 'low'],
    ])
    expect(scan.findings[0]).toMatchObject({
      tags: ['cis-1.8', 'manual-check', 'not-scored'],
      evidence: 'Reason: Test marked as a manual test\nAudit: /bin/ps -ef | grep kube-apiserver | grep -v grep',
      raw: { kubernetesVersion: '1.27', type: 'manual' },
    })
    expect(scan.findings[2]?.evidence).toContain('Audit config: /bin/cat /var/lib/kubelet/config.yaml')
    expect(scan.statistics).toMatchObject({ 'status:info': 1, 'totals:info': 1 })
  })

  it('empty.json: no failure is an empty scan', async () => {
    expect(await parse('empty.json')).toMatchObject({ findings: [], targets: ['node'], statistics: { checks: 1, findings: 0 } })
  })

  it('names benchmarks: bare CIS numbers, managed variants as they are', () => {
    expect(benchmarkOf('1.6')).toBe('cis-1.6')
    expect(benchmarkOf('cis-1.8')).toBe('cis-1.8')
    expect(benchmarkOf('eks-1.2.0')).toBe('eks-1.2.0')
    expect(benchmarkOf(undefined)).toBe('cis')
  })
})

describe('kube-bench findings in the cloud service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['kube-bench-controls.json', 'kube-bench-report-many-vuln.json', 'synthetic-kube-bench-0.8.json']) {
      const first = await parse(name)
      expect(await parse(name, 333)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('cloud', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the cloud page and recognised by content: every kube-bench file, and no other format's file", () => {
    expect(formatsForService('cloud').map((p) => p.format)).toContain('kube_bench_json')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'kube_bench_json', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'kube_bench_json',
      )
  })
})

describe('kubeBenchJsonParser refuses', () => {
  const refusal = (json: string) =>
    parseText(kubeBenchJsonParser, json, 64).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated file, nesting past the limit and a file of another shape, in words', async () => {
    const cut = text('synthetic-kube-bench-0.8.json').slice(0, 1_500)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^kube-bench JSON, line \d+/)
    const deep = `{"Controls": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}${']'.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `kube-bench JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"results": []}')).resolves.toMatchObject({
      message: 'kube-bench JSON, file: no Controls: not a kube-bench report',
    })
    await expect(refusal('id,status\n1,FAIL')).resolves.toMatchObject({
      message: 'kube-bench JSON, line 1: the file starts with "i", not a JSON object or array',
    })
  })
})
