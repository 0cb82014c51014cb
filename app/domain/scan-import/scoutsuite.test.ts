import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'
import { fromOffsetDateText } from './scan-collector.ts'
import { scoutsuiteJson, scoutsuiteParser } from './scoutsuite.ts'
import { textChunks } from './text-source.ts'

const text = (name: string) => fixtureText('scoutsuite_js', name)
const parse = (name: string, chunk?: number) => parseText(scoutsuiteParser, text(name), chunk)
const refusal = (body: string) =>
  parseText(scoutsuiteParser, body, 64).then(
    () => null,
    (e: unknown) => e,
  )

describe('scoutsuiteParser on public results files', () => {
  it('aws-new2.js (ScoutSuite 5.10.2, AWS): one finding per rule and flagged item, region and resource from the item path', async () => {
    const scan = await parse('aws-new2.js', 2_000)
    expect(scan.tool).toEqual({ name: 'ScoutSuite', version: '5.10.2' })
    expect(scan.finishedAt).toBe(Date.parse('2021-10-01T20:47:09+02:00'))
    expect(scan.targets).toEqual(['430150006394'])
    expect(scan.statistics).toMatchObject({ rules: 148, flaggedRules: 30, flaggedItems: 75, findings: 75 })
    expect(severityCounts(scan)).toEqual({ high: 20, medium: 55 })
    expect(scan.findings[0]).toMatchObject({
      ruleId: 'scoutsuite:cloudtrail-not-configured',
      title: 'CloudTrail Service Not Configured',
      severity: 'high',
      target: {
        kind: 'cloud',
        provider: 'aws',
        account: '430150006394',
        region: 'ap-northeast-1',
        cloudService: 'CloudTrail',
        resource: 'regions.ap-northeast-1',
      },
      references: ['https://docs.aws.amazon.com/awscloudtrail/latest/userguide/best-practices-security.html'],
      evidence: 'Regions flagged: cloudtrail.regions.ap-northeast-1.NotConfigured',
      raw: { rule: 'cloudtrail-not-configured', level: 'danger', checkedItems: 16, flaggedItems: 16 },
    })
    const sg = scan.findings.find((f) => f.ruleId === 'scoutsuite:ec2-default-security-group-with-rules')
    expect(sg).toMatchObject({
      severity: 'medium',
      target: {
        region: 'ap-northeast-1',
        cloudService: 'EC2',
        resource: 'regions.ap-northeast-1.vpcs.vpc-0cbc506a.security_groups.sg-6569b32b.rules.ingress',
      },
      remediation: 'Ensure the default security group of every VPC restricts all traffic',
      tags: [
        'CIS Amazon Web Services Foundations 1.0.0 4.4',
        'CIS Amazon Web Services Foundations 1.1.0 4.4',
        'CIS Amazon Web Services Foundations 1.2.0 4.3',
      ],
    })
    expect(scan.assets).toEqual([
      {
        type: 'cloud_resource',
        value: '430150006394',
        cloud: { account: '430150006394', region: '', cloudService: 'Amazon Web Services' },
        raw: { provider: 'aws', partition: 'aws', ruleset: 'default' },
      },
    ])
  })

  it('gcp-two_findings.js and gcp-no_vuln.js (GCP): buckets as resources, a clean project an empty scan', async () => {
    const scan = await parse('gcp-two_findings.js')
    expect(scan.findings.map((f) => [f.ruleId, f.target.kind === 'cloud' && f.target.resource])).toEqual([
      ['scoutsuite:cloudstorage-bucket-no-logging', 'projects.gcp-project-id.buckets.52fc025e81845686d3c9fe5a5dc4f5e7ae740064'],
      ['scoutsuite:cloudstorage-bucket-no-logging', 'projects.gcp-project-id.buckets.be0c682b7f6d9568fed2ec924eea5ebcfe083f3b'],
      ['scoutsuite:cloudstorage-bucket-no-versioning', 'projects.gcp-project-id.buckets.52fc025e81845686d3c9fe5a5dc4f5e7ae740064'],
      ['scoutsuite:cloudstorage-bucket-no-versioning', 'projects.gcp-project-id.buckets.be0c682b7f6d9568fed2ec924eea5ebcfe083f3b'],
    ])
    expect(scan.findings[0]?.tags).toEqual(['CIS Google Cloud Platform Foundations 1.0.0 5.3'])
    const clean = await parse('gcp-no_vuln.js')
    expect(clean).toMatchObject({ findings: [], targets: ['project-id'], statistics: { rules: 50, findings: 0 } })
  })
})

describe('scoutsuiteParser on other shapes (synthetic)', () => {
  it('Azure with a trailing semicolon, an unknown level said, a rule with no flagged item left out', async () => {
    const scan = await parse('synthetic-azure.js', 50)
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['scoutsuite:storageaccount-https-traffic-disabled', 'high'],
      ['scoutsuite:storageaccount-soft-delete-disabled', 'info'],
    ])
    expect(scan.findings[0]).toMatchObject({
      target: { provider: 'azure', account: '00000000-0000-4000-8000-000000000abc', cloudService: 'Storage Accounts' },
      remediation: 'Enable "Secure transfer required" on the storage account.',
    })
    expect(scan.notes).toEqual([
      {
        level: 'warning',
        where: '$.services.storageaccounts.findings.storageaccount-soft-delete-disabled',
        message: 'storageaccount-soft-delete-disabled: level "critical" read as info',
      },
    ])
  })

  it('empty.json: plain JSON (no assignment) without flagged items is an empty scan', async () => {
    expect(await parse('empty.json')).toMatchObject({ findings: [], targets: ['123456789012'], tool: { version: '5.14.0' } })
  })

  it('takes the assignment and the semicolon off whatever the chunks, keeping the line numbers', async () => {
    const read = async (body: string, size: number) => {
      let out = ''
      for await (const chunk of scoutsuiteJson(textChunks(body, size))) out += chunk
      return out
    }
    for (const size of [1, 3, 7, 100]) {
      expect(await read('scoutsuite_results =\n{"a": "x;"};\n', size)).toBe('\n{"a": "x;"}\n')
      expect(await read('{"a": 1}', size)).toBe('{"a": 1}')
    }
    expect(fromOffsetDateText('2021-01-08 17:28:00+0100')).toBe(Date.parse('2021-01-08T17:28:00+01:00'))
  })
})

describe('ScoutSuite findings in the cloud service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['aws-new2.js', 'gcp-two_findings.js', 'synthetic-azure.js']) {
      const first = await parse(name)
      expect(await parse(name, 333)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('cloud', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the cloud page and recognised by content: every ScoutSuite file, and no other format's file", () => {
    expect(formatsForService('cloud').map((p) => p.format)).toContain('scoutsuite_js')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'scoutsuite_js', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'scoutsuite_js',
      )
  })
})

describe('scoutsuiteParser refuses', () => {
  it('a truncated file, nesting past the limit and another JSON, with the format and line in words', async () => {
    const cut = text('synthetic-azure.js').slice(0, 1_200)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^ScoutSuite results, line \d+/)
    const deep = `scoutsuite_results =\n{"services": ${'['.repeat(PARSE_LIMITS.maxDepth)}${']'.repeat(PARSE_LIMITS.maxDepth)}}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `ScoutSuite results, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"results": []}')).resolves.toMatchObject({
      message: 'ScoutSuite results, file: no account, provider or services: not a ScoutSuite results file',
    })
  })
})
