import { describe, expect, it } from 'vitest'
import { fixtureNames, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'
import { trivyJsonParser } from './trivy-json.ts'

const text = (name: string) => fixtureText('trivy_json', name)
const parse = (name: string, chunk?: number) => parseText(trivyJsonParser, text(name), chunk)

describe('Trivy JSON, schema 2', () => {
  it('scheme_2_many_vulns.json: an image, one finding per vulnerable package, the image an asset', async () => {
    const scan = await parse('scheme_2_many_vulns.json', 500)
    expect(scan.targets).toEqual(['teamdojo:latest'])
    expect(severityCounts(scan)).toEqual({ critical: 1, high: 1, medium: 3 })
    const [freetype] = scan.findings
    expect(freetype).toMatchObject({
      ruleId: 'CVE-2020-15999',
      title: 'CVE-2020-15999 in freetype: freetype: Heap-based buffer overflow due to integer truncation in Load_SBit_Png',
      severity: 'medium',
      target: {
        kind: 'cloud',
        provider: 'container',
        account: 'teamdojo:latest',
        region: '',
        cloudService: 'alpine',
        resource: 'teamdojo:latest (alpine 3.9.4) › freetype (app/libs/freetype-2.9.1-r2)',
      },
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:N/A:H', score: 6.5 },
      cwe: ['CWE-787'],
      cve: ['CVE-2020-15999'],
      remediation: 'Upgrade freetype from 2.9.1-r2 to 2.9.1-r3.',
      raw: { pkgName: 'freetype', installedVersion: '2.9.1-r2', fixedVersion: '2.9.1-r3', class: 'os-pkgs' },
    })
    expect(freetype?.references?.[0]).toBe('https://avd.aquasec.com/nvd/cve-2020-15999')
    expect(scan.assets).toEqual([
      {
        type: 'cloud_resource',
        value: 'teamdojo:latest',
        cloud: { account: 'teamdojo:latest', region: '', cloudService: 'container_image' },
        technologies: ['alpine 3.9.4'],
        raw: {},
      },
    ])
  })

  it('cvssv4_severity_source.json (Trivy 0.69.1): CVSS 4.0 from the rating source, the version and time', async () => {
    const scan = await parse('cvssv4_severity_source.json')
    expect(scan.tool).toEqual({ name: 'Trivy', version: '0.69.1' })
    expect(scan.finishedAt).toBe(Date.parse('2026-02-24T07:07:53.487Z'))
    expect(scan.findings[0]).toMatchObject({
      ruleId: 'CVE-2025-66614',
      cvss: { version: '4.0', vector: 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N', score: 6.3 },
      target: { provider: 'filesystem', cloudService: 'jar', resource: 'Java › org.apache.tomcat:tomcat-catalina (catalina.jar)' },
      raw: { purl: 'pkg:maven/org.apache.tomcat/tomcat-catalina@9.0.109', vendorIds: ['GHSA-fpj8-gq4v-p354'], severitySource: 'ghsa' },
    })
  })

  it('all_statuses.json: not_affected is left out and counted, the other statuses are kept as tags', async () => {
    const scan = await parse('all_statuses.json')
    expect(scan.findings).toHaveLength(7)
    expect(scan.statistics).toMatchObject({ vulnerabilities: 8, notAffected: 1, findings: 7 })
    expect(scan.findings.map((f) => f.tags?.[0]).sort()).toEqual([
      'affected',
      'end_of_life',
      'fix_deferred',
      'fixed',
      'under_investigation',
      'unknown',
      'will_not_fix',
    ])
    expect(scan.findings.find((f) => f.tags?.[0] === 'will_not_fix')?.remediation).toMatch(
      /^No fix will be published for .+ \(will not fix\)/,
    )
  })

  it('misconfigurations_and_secrets.json: a Dockerfile check and masked secrets beside the vulnerabilities', async () => {
    const scan = await parse('misconfigurations_and_secrets.json')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'cloud' && f.target.resource])).toEqual([
      ['CVE-2021-33503', 'high', 'requirements.txt › urllib3'],
      ['CVE-2021-28363', 'medium', 'requirements.txt › urllib3'],
      ['DS002', 'high', 'Dockerfile'],
      ['secret:github-pat', 'critical', 'Dockerfile › line 24'],
      ['secret:github-pat', 'critical', 'secret.txt › line 1'],
    ])
    const dockerfile = scan.findings[2]
    expect(dockerfile).toMatchObject({
      title: "Image user should not be 'root'",
      remediation: "Add 'USER <non root user name>' line to the Dockerfile",
      target: { provider: 'dockerfile', cloudService: 'dockerfile' },
      evidence: 'Specify at least 1 USER command in Dockerfile with non-root user as argument',
    })
    const secret = scan.findings[3]
    expect(secret).toMatchObject({ cwe: ['CWE-798'], evidence: 'ENV GITHUB_PAT=*****', raw: { category: 'GitHub', startLine: 24 } })
    expect(scan.statistics).toMatchObject({ secrets: 2, misconfigurations: 1, checksPassedInSummaries: 22 })
  })

  it('issue_14136.json: a Terraform check filed under its cloud provider and resource, with the code shown', async () => {
    const [finding] = (await parse('issue_14136.json')).findings
    expect(finding).toMatchObject({
      ruleId: 'AVD-AWS-0143',
      severity: 'low',
      target: {
        provider: 'aws',
        account: 'tofu/clusters/sandbox',
        cloudService: 'terraform',
        resource: '../../aws-credentials/main.tf › module.aws_credentials',
      },
      raw: { service: 'iam', startLine: 20, endLine: 24 },
    })
    expect(finding?.evidence).toMatch(/^One or more policies are attached directly to a user\n\n20: resource "aws_iam_user" "this" \{/)
  })

  it('issue_9092.json: an SBOM scan; scheme_2_no_vuln.json: an image without vulnerabilities', async () => {
    expect((await parse('issue_9092.json')).findings[0]?.target).toMatchObject({
      provider: 'cyclonedx',
      account: 'sbom.json',
      cloudService: 'pip',
    })
    const empty = await parse('scheme_2_no_vuln.json')
    expect(empty).toMatchObject({ findings: [], targets: ['trivy-unittest:latest'], statistics: { results: 1, findings: 0 } })
  })
})

describe('Trivy JSON, the legacy array and trivy k8s', () => {
  it('legacy_many_vulns.json (before 0.20): 93 vulnerabilities of one image', async () => {
    const scan = await parse('legacy_many_vulns.json', 2048)
    expect(scan.findings).toHaveLength(93)
    expect(severityCounts(scan)).toEqual({ high: 18, medium: 9, low: 65, info: 1 })
    expect(scan.statistics).toMatchObject({ unknownSeverity: 1 })
    expect(scan.findings[0]?.target).toMatchObject({
      provider: 'container',
      cloudService: 'debian',
      resource: 'debian (debian 10.8) › apt',
    })
  })

  it('empty-legacy.json: "null" is a report without results', async () => {
    expect(await parse('empty-legacy.json')).toMatchObject({ findings: [], assets: [], format: 'trivy_json' })
  })

  it('kubernetes.json (older trivy k8s): findings by cluster, namespace and workload', async () => {
    const scan = await parse('kubernetes.json')
    expect(scan.targets).toEqual(['arn:aws:eks:us-east-1:576036489467:cluster/monitoring-test-cluster'])
    expect(scan.statistics).toMatchObject({ resources: 6, vulnerabilities: 10, misconfigurations: 10, findings: 20 })
    expect(scan.findings[0]?.target).toEqual({
      kind: 'cloud',
      provider: 'kubernetes',
      account: 'arn:aws:eks:us-east-1:576036489467:cluster/monitoring-test-cluster',
      region: 'default',
      cloudService: 'debian',
      resource: 'Deployment/redis-follower › gcr.io/google_samples/gb-redis-follower:v2 (debian 10.4) › apt',
    })
    expect(scan.assets.map((a) => a.value)).toEqual([
      'default/Deployment/redis-follower',
      'default/Deployment/redis-leader',
      'default/Service/redis-follower',
      'default/Service/redis-leader',
    ])
  })

  it('synthetic-k8s-resources.json (trivy k8s 0.50): Resources[], passed and excepted checks counted, one workload name in two namespaces', async () => {
    const scan = await parse('synthetic-k8s-resources.json', 64)
    expect(
      scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'cloud' && `${f.target.region} ${f.target.resource}`]),
    ).toEqual([
      ['CVE-2024-2511', 'info', 'shop Deployment/web › registry.example.test/shop/web:1.4.2 (alpine 3.19.1) › libssl3'],
      ['secret:aws-access-key-id', 'critical', 'shop Deployment/web › /app/config.env › line 3'],
      ['KSV012', 'medium', 'shop Deployment/web'],
      ['KSV012', 'medium', 'payments Deployment/web'],
    ])
    expect(scan.statistics).toMatchObject({ notAffected: 1, misconfigurationsPassed: 2, unknownSeverity: 1 })
    expect(JSON.stringify(scan)).not.toMatch(/AKIA/)
  })
})

describe('Trivy findings in the cloud service', () => {
  const named = fixtureNames('trivy_json').filter((n) => n.endsWith('.json'))

  it('each finding has its own fingerprint, and importing a report again gives the same ones', async () => {
    for (const name of named) {
      const first = await parse(name)
      const again = await parse(name, 777)
      expect(again, name).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('cloud', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
      expect(await Promise.all(again.findings.map((f) => parsedFingerprint('cloud', f)))).toEqual(ids)
    }
  })

  it('is offered on the cloud page and recognised by content', () => {
    expect(formatsForService('cloud').map((p) => p.format)).toContain('trivy_json')
    for (const name of named.filter((n) => n !== 'empty-legacy.json'))
      expect(detectFormat(text(name).slice(0, SNIFF_CHARS))?.format, name).toBe('trivy_json')
    for (const other of ['gitleaks-8.json', 'semgrep.json', 'package.json'])
      expect(detectFormat(fixtureText('not-scans', other))).toBeNull()
  })
})

describe('Trivy JSON refuses', () => {
  const refusal = (json: string) =>
    trivyJsonParser.parse(textChunks(json, 100)).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated report and nesting deeper than the limit, with the format and the line', async () => {
    const cut = text('scheme_2_many_vulns.json').slice(0, 5_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Trivy JSON', reason: expect.stringMatching(/truncated/) })
    const deep = `{"SchemaVersion": 2, "ArtifactName": "x",\n"Results": [${'['.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `Trivy JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
  })

  it('a JSON object that is not a Trivy report, and text that is not JSON', async () => {
    await expect(refusal('{"name": "app", "version": "1.0.0"}')).resolves.toMatchObject({
      message: 'Trivy JSON, file: neither SchemaVersion, ArtifactName nor ClusterName: not a Trivy report',
    })
    await expect(refusal('Target: x')).resolves.toMatchObject({ formatLabel: 'Trivy JSON', where: 'line 1' })
  })

  it('keeps a huge description bounded', async () => {
    const report = JSON.stringify({
      SchemaVersion: 2,
      ArtifactName: 'img',
      ArtifactType: 'container_image',
      Results: [
        {
          Target: 'img',
          Class: 'os-pkgs',
          Type: 'debian',
          Vulnerabilities: [{ VulnerabilityID: 'CVE-2024-0001', PkgName: 'p', Severity: 'LOW', Description: 'd'.repeat(100_000) }],
        },
      ],
    })
    const [finding] = (await trivyJsonParser.parse(textChunks(report))).findings
    expect(finding?.description?.length).toBeLessThanOrEqual(PARSE_LIMITS.maxFieldChars)
  })
})
