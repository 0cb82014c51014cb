import { describe, expect, it } from 'vitest'
import { fixtureNames, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { grypeJsonParser } from './grype-json.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

const text = (name: string) => fixtureText('grype_json', name)
const parse = (name: string, chunk?: number) => parseText(grypeJsonParser, text(name), chunk)

describe('parseGrypeJson on public reports', () => {
  it('check_all_fields.json (Grype 0.28): severities, NVD CVSS of the related record, fixes, a repeated match once', async () => {
    const scan = await parse('check_all_fields.json', 300)
    expect(scan.tool).toEqual({ name: 'Grype', version: '0.28.0' })
    expect(scan.targets).toEqual(['vulnerable-image:latest'])
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'cloud' && f.target.resource])).toEqual([
      ['CVE-2004-0971', 'info', 'libgssapi-krb5-2 (/var/lib/dpkg/status)'],
      ['CVE-2021-32626', 'high', 'redis (/usr/local/lib/python3.8/site-packages/redis-4.0.2.dist-info/METADATA)'],
      ['CVE-2021-33574', 'critical', 'libc-bin (/var/lib/dpkg/status)'],
      ['CVE-2021-33574', 'critical', 'libc6 (/var/lib/dpkg/status)'],
      ['GHSA-v6rh-hp5x-86rv', 'high', 'Django (/usr/local/lib/python3.8/site-packages/Django-3.2.9.dist-info/METADATA)'],
    ])
    expect(scan.statistics).toMatchObject({ matches: 6, duplicateMatches: 1, findings: 5 })
    const [krb5, , libc] = scan.findings
    expect(krb5).toMatchObject({
      target: { kind: 'cloud', provider: 'container', account: 'vulnerable-image:latest', region: '', cloudService: 'deb' },
      cvss: { version: '2.0', vector: 'AV:L/AC:L/Au:N/C:N/I:P/A:N', score: 2.1 },
      tags: ['not-fixed'],
      raw: { namespace: 'debian:10', packageVersion: '1.17-3+deb10u3' },
    })
    expect(libc?.remediation).toBe('No fix will be published for libc-bin: replace or remove it.')
    // A GitHub advisory names its CVE through the related record.
    expect(scan.findings[4]).toMatchObject({ cve: ['CVE-2021-44420'], remediation: 'Upgrade Django from 3.2.9 to 3.2.10.' })
    expect(scan.assets).toEqual([
      {
        type: 'cloud_resource',
        value: 'vulnerable-image:latest',
        cloud: { account: 'vulnerable-image:latest', region: '', cloudService: 'image' },
        technologies: ['debian 10'],
        raw: { imageId: 'sha256:ce9898fd214aef9c994a42624b09056bdce3ff4a8e3f68dc242d967b80fcbeee' },
      },
    ])
  })

  it('issue_9618.json (Grype 0.96, keys sorted): the source after the matches still files every finding', async () => {
    const scan = await parse('issue_9618.json', 1000)
    expect(scan.findings).toHaveLength(35)
    expect(scan.finishedAt).toBe(Date.parse('2024-02-22T18:46:26.372Z'))
    expect(new Set(scan.findings.map((f) => f.target.kind === 'cloud' && f.target.account))).toEqual(
      new Set(['quay.io/cloudservices/xjoin-kafka-connect-strimzi:latest']),
    )
    expect(severityCounts(scan)).toEqual({ critical: 1, high: 18, medium: 13, low: 2, info: 1 })
    expect(scan.notes).toEqual([{ level: 'warning', where: '$.matches[33]', message: 'CVE-2024-26308: severity null read as info' }])
  })

  it('many_vulns_with_epss_values.json (Grype 0.94): EPSS and risk kept; many_vulns4.json: a directory scan', async () => {
    const epss = await parse('many_vulns_with_epss_values.json')
    expect(epss.findings[0]).toMatchObject({
      ruleId: 'CVE-2022-28391',
      cvss: { version: '3.1', score: 8.8 },
      raw: { epss: 0.0719, epssPercentile: 0.91123 },
    })
    const directory = await parse('many_vulns4.json')
    expect(directory.findings[0]?.target).toMatchObject({
      provider: 'directory',
      account: '.',
      cloudService: 'npm',
      resource: 'delegate (components/yarn.lock)',
    })
  })

  it('same_cve_different_paths.json: one CVE in two places is two findings; fix_available.json: a NUL in a version is dropped', async () => {
    const paths = await parse('same_cve_different_paths.json')
    expect(paths.findings.map((f) => f.target.kind === 'cloud' && f.target.resource)).toHaveLength(2)
    expect(new Set(paths.findings.map((f) => f.target.kind === 'cloud' && f.target.resource)).size).toBe(2)
    const [java] = (await parse('fix_available.json')).findings
    expect(java?.title).toBe('CVE-2009-3882 in java 17.0.10+7-J-ms8m')
  })

  it('empty-no_vuln.json: no matches', async () => {
    expect(await parse('empty-no_vuln.json')).toMatchObject({ findings: [], targets: ['busybox:latest'], tool: { version: '0.7.0' } })
  })
})

describe('Grype findings in the cloud service', () => {
  const names = fixtureNames('grype_json')

  it('each finding has its own fingerprint, and a second import gives the same ones', async () => {
    for (const name of names) {
      const first = await parse(name)
      expect(await parse(name, 999), name).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('cloud', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it('is offered on the cloud page and recognised by content, not taken for Trivy', () => {
    expect(formatsForService('cloud').map((p) => p.format)).toContain('grype_json')
    for (const name of names) expect(detectFormat(text(name).slice(0, SNIFF_CHARS))?.format, name).toBe('grype_json')
    expect(detectFormat(fixtureText('trivy_json', 'scheme_2_many_vulns.json'))?.format).toBe('trivy_json')
  })
})

describe('parseGrypeJson refuses', () => {
  const refusal = (json: string) =>
    grypeJsonParser.parse(textChunks(json, 100)).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated report, nesting deeper than the limit and a JSON object of another kind', async () => {
    await expect(refusal(text('check_all_fields.json').slice(0, 4_000))).resolves.toMatchObject({
      formatLabel: 'Grype JSON',
      reason: expect.stringMatching(/truncated/),
    })
    const deep = `{"matches": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `Grype JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"name": "app"}')).resolves.toMatchObject({
      message: 'Grype JSON, file: no matches, source or descriptor: not a Grype report',
    })
  })
})
