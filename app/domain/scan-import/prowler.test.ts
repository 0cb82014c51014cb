import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { ScanParseError } from './parsed-scan.ts'
import { prowlerCsvParser, prowlerOcsfParser } from './prowler.ts'

// Counted by hand from the synthetic files: 7 results (one FAIL has two resources).
const TWO_ACCOUNTS_STATS = {
  service: 'cloud',
  accounts: 2,
  regions: 2,
  checksRun: 7,
  passed: 2,
  failed: 4,
  manual: 1,
  byCloudService: [
    { name: 'ec2', passed: 1, failed: 2 },
    { name: 'iam', passed: 0, failed: 1 },
    { name: 's3', passed: 1, failed: 1 },
  ],
  byAccountRegion: [
    { account: '222222222222', region: 'eu-west-1', failed: 2 },
    { account: '111111111111', region: 'eu-west-1', failed: 1 },
    { account: '111111111111', region: 'us-east-1', failed: 1 },
  ],
  frameworks: [
    { name: 'CIS-3.0', passed: 1, total: 3 },
    { name: 'ISO27001-2022', passed: 1, total: 2 },
  ],
}

describe('prowlerOcsfParser', () => {
  const parse = (name: string) => parseFixture(prowlerOcsfParser, 'prowler_ocsf_json', name)

  it('turns FAILs into findings and counts PASS and MANUAL into the cloud figures', async () => {
    const scan = await parse('synthetic-two-accounts.ocsf.json')
    expect(scan.findings).toHaveLength(4)
    expect(severityCounts(scan)).toEqual({ high: 1, critical: 1, info: 2 })
    expect(scan.serviceStats).toEqual(TWO_ACCOUNTS_STATS)
    expect(scan.findings[0]).toMatchObject({
      ruleId: 's3_bucket_public_access',
      title: 'Check s3 bucket public access',
      severity: 'high',
      target: {
        kind: 'cloud',
        provider: 'aws',
        account: '111111111111',
        region: 'eu-west-1',
        cloudService: 's3',
        resource: 'arn:aws:s3:::acme-public',
      },
      description: 'Check s3_bucket_public_access\n\nRisk of s3_bucket_public_access',
      remediation: 'Fix s3_bucket_public_access',
      references: ['https://hub.prowler.com/check/s3_bucket_public_access', 'https://docs.example/s3_bucket_public_access'],
      evidence: 's3_bucket_public_access: FAIL for arn:aws:s3:::acme-public',
    })
    expect(scan.findings[0]?.raw.compliance).toEqual({ 'CIS-3.0': ['2.1.4'], 'ISO27001-2022': ['A.8.3'] })
    expect(scan.findings.slice(2).map((f) => f.target)).toMatchObject([
      { resource: 'arn:aws:ec2:eu-west-1:222222222222:instance/i-1' },
      { resource: 'arn:aws:ec2:eu-west-1:222222222222:instance/i-2' },
    ])
    expect(scan.tool).toEqual({ name: 'Prowler', version: '5.4.0' })
    expect(scan.startedAt).toBe(1739539623000)
    expect(scan.finishedAt).toBe(1739539628000)
  })

  it('reads Prowler 5 outputs of four providers', async () => {
    const aws = await parse('example_output_aws.ocsf.json')
    expect(severityCounts(aws)).toEqual({ low: 1, medium: 1 })
    expect(aws.serviceStats).toMatchObject({ checksRun: 3, failed: 2, manual: 1, passed: 0 })
    expect(aws.serviceStats).toMatchObject({
      frameworks: expect.arrayContaining([
        { name: 'CIS-3.0', passed: 0, total: 1 },
        { name: 'KISA-ISMS-P-2023', passed: 0, total: 2 },
      ]),
    })
    expect(severityCounts(await parse('example_output_azure.ocsf.json'))).toEqual({ low: 1, medium: 1, high: 1 })
    const gcp = await parse('example_output_gcp.ocsf.json')
    expect(severityCounts(gcp)).toEqual({ medium: 2, critical: 1 })
    expect(gcp.findings[0]?.target).toEqual({
      kind: 'cloud',
      provider: 'gcp',
      account: '<project_id>',
      region: 'global',
      cloudService: 'apikeys',
      resource: '<project_id>',
    })
    const k8s = await parse('example_output_kubernetes.ocsf.json')
    expect(k8s.findings).toHaveLength(4)
    expect(k8s.findings[0]?.target).toEqual({
      kind: 'cloud',
      provider: 'kubernetes',
      account: '',
      region: 'namespace: <namespace>',
      cloudService: 'apiserver',
      resource: '<resource_uid>',
    })
  })

  it('reads Prowler 4 outputs, before and after 4.5', async () => {
    for (const name of ['v3-many_vuln.ocsf.json', 'v4.5-many_vuln.ocsf.json']) {
      const scan = await parse(name)
      expect(severityCounts(scan)).toEqual({ high: 3 })
      expect(scan.findings[0]).toMatchObject({
        ruleId: 'iam_role_administratoraccess_policy_permissive_trust_relationship',
        target: {
          provider: 'aws',
          account: '123456789012',
          region: 'us-east-1',
          cloudService: 'iam',
          resource: 'arn:aws:iam::123456789012:role/myAdministratorExecutionRole',
        },
        tags: ['trustboundaries'],
      })
      expect(scan.tool.version).toBe('4.2.1')
      expect(scan.startedAt).not.toBeNull()
    }
  })

  it('skips what it cannot read and names the path of a broken file', async () => {
    const doc = JSON.stringify([
      { status_code: 'ERROR', metadata: { event_code: 'x' } },
      3,
      { status_code: 'FAIL', severity: 'Urgent', metadata: { event_code: 'y' } },
    ])
    const scan = await parseText(prowlerOcsfParser, doc)
    expect(scan.notes.map((n) => `${n.level} ${n.where}: ${n.message}`)).toEqual([
      'skipped $[0]: unknown status "ERROR"',
      'skipped $[1]: the finding is not an object',
      'warning $[2]: check y: severity "Urgent" read as info',
    ])
    expect(scan.findings[0]?.target).toEqual({
      kind: 'cloud',
      provider: 'unknown',
      account: '',
      region: '',
      cloudService: 'y',
      resource: '',
    })
    const text = fixtureText('prowler_ocsf_json', 'synthetic-two-accounts.ocsf.json')
    const error = await parseText(prowlerOcsfParser, text.slice(0, 4000)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^Prowler OCSF JSON, line \d+ \(after \$\[\d\]\): the file ends in the middle/)
    await expect(parseText(prowlerOcsfParser, '{"a": 1}')).rejects.toThrow('Prowler OCSF JSON, $: not an array of findings')
  })
})

describe('prowlerCsvParser', () => {
  const parse = (name: string) => parseFixture(prowlerCsvParser, 'prowler_csv', name)

  it('gives the same findings and figures as the OCSF file of the same results', async () => {
    const scan = await parse('synthetic-two-accounts.csv')
    expect(scan.serviceStats).toEqual(TWO_ACCOUNTS_STATS)
    const ocsf = await parseFixture(prowlerOcsfParser, 'prowler_ocsf_json', 'synthetic-two-accounts.ocsf.json')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual(ocsf.findings.map((f) => [f.ruleId, f.severity, f.target]))
    expect(scan.findings[0]).toMatchObject({
      evidence: 's3_bucket_public_access: FAIL; resource arn:aws:s3:::acme-public',
      description: 'Check s3_bucket_public_access\n\nRisk of s3_bucket_public_access',
    })
    expect(scan.findings[0]?.raw.REMEDIATION_CODE_CLI).toBe('aws s3 fix \\\n  --id "x;y"')
    expect(scan.startedAt).toBe(Date.UTC(2025, 1, 14, 13, 27, 0))
    expect(scan.notes).toEqual([])
  })

  it('reads Prowler 5 CSV of four providers', async () => {
    const aws = await parse('example_output_aws.csv')
    expect(severityCounts(aws)).toEqual({ low: 1, medium: 1 })
    expect(aws.serviceStats).toMatchObject({ checksRun: 4, failed: 2, manual: 2 })
    expect(aws.findings[0]).toMatchObject({
      ruleId: 'accessanalyzer_enabled',
      target: { provider: 'aws', account: '<account_uid>', cloudService: 'accessanalyzer' },
    })
    expect(severityCounts(await parse('example_output_azure.csv'))).toEqual({ medium: 2, high: 2 })
    const gcp = await parse('example_output_gcp.csv')
    expect(severityCounts(gcp)).toEqual({ critical: 2, medium: 1 })
    expect(gcp.serviceStats).toMatchObject({ passed: 1, failed: 3 })
    const k8s = await parse('example_output_kubernetes.csv')
    expect(k8s.findings[0]?.target).toMatchObject({ provider: 'kubernetes', region: 'namespace: kube-system' })
    expect((await parse('prowler_zero_vul.csv')).findings).toEqual([])
  })

  it('skips rows with the wrong number of fields, naming their line, and refuses other CSV', async () => {
    const lines = fixtureText('prowler_csv', 'synthetic-two-accounts.csv').split('\n')
    // Each record spans two lines (a quoted line break): line 4 starts the second.
    lines.splice(3, 2, 'a;b;c')
    const scan = await parseText(prowlerCsvParser, lines.join('\n'), 100)
    expect(scan.notes).toEqual([{ level: 'skipped', where: 'line 4', message: '3 fields where the header has 29' }])
    expect(scan.findings).toHaveLength(4)
    await expect(parseText(prowlerCsvParser, 'name;version\nreact;19\n')).rejects.toThrow(
      'Prowler CSV, line 1: the header has no CHECK_ID and STATUS columns',
    )
    await expect(parseText(prowlerCsvParser, '')).rejects.toThrow('Prowler CSV, line 1: the file is empty')
  })
})
