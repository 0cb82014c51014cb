import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { checkovJsonParser } from './checkov-json.ts'
import { detectFormat } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { ScanParseError } from './parsed-scan.ts'

const parse = (name: string) => parseFixture(checkovJsonParser, 'checkov_json', name)

describe('checkovJsonParser', () => {
  it('reads one framework: a finding per failed check and resource, the guideline its reference, file and lines its location', async () => {
    const scan = await parse('checkov-report-1-vuln.json')
    expect(scan.tool).toEqual({ name: 'Checkov', version: '1.0.467' })
    expect(scan.targets).toEqual(['terraform'])
    expect(scan.findings).toEqual([
      {
        ruleId: 'CKV_AZURE_42',
        title: 'CKV_AZURE_42: Ensure the key vault is recoverable',
        severity: 'medium',
        target: {
          kind: 'cloud',
          provider: 'iac',
          account: '',
          region: '',
          cloudService: 'terraform',
          resource: 'file_path › azurerm_key_vault.main',
        },
        description: 'Ensure the key vault is recoverable',
        references: ['https://docs.bridgecrew.io/docs/ensure-the-key-vault-is-recoverable'],
        evidence: 'at file_path:1-16',
        raw: {
          location: 'file_path:1-16',
          file: 'file_path',
          lines: '1-16',
          resource: 'azurerm_key_vault.main',
          checkClass: 'checkov.terraform.checks.resource.azure.KeyvaultRecoveryEnabled',
          severity: null,
        },
      },
    ])
    expect(scan.statistics).toMatchObject({ reports: 1, failed: 1, passed: 0, unrated: 1, findings: 1 })
  })

  it("reads Checkov's severities, benchmarks and quoted code", async () => {
    const scan = await parse('checkov-report-severity.json')
    expect(severityCounts(scan)).toEqual({ medium: 2, low: 1, high: 1 })
    const binding = scan.findings.find((f) => f.ruleId === 'CKV_GCP_28')
    expect(binding?.severity).toBe('high')
    expect(binding?.target).toMatchObject({ resource: '/gcs.tf › google_storage_bucket_iam_binding.allow_public_read' })
    expect(binding?.tags).toEqual(['ISO27001 A.8.2.3, A.14.1.3', 'CIS GCP V1.1 5.1'])
    expect(binding?.evidence).toMatch(/^at \/gcs\.tf:17-21\n17: resource "google_storage_bucket_iam_binding" "allow_public_read" \{/)
    expect(binding?.raw).toMatchObject({ bcCheckId: 'BC_GCP_PUBLIC_1', lines: '17-21' })
  })

  it('reads the array of frameworks, each finding under its own, and counts passed checks without importing them', async () => {
    const scan = await parse('checkov-report-multiple-check_type-trimmed.json')
    expect(scan.tool.version).toBe('2.0.209')
    expect(scan.targets).toEqual(['terraform', 'dockerfile'])
    expect(scan.statistics).toMatchObject({
      reports: 2,
      passed: 4,
      failed: 6,
      findings: 6,
      'framework:terraform': 4,
      'framework:dockerfile': 2,
    })
    expect(scan.findings.map((f) => [f.ruleId, f.target.kind === 'cloud' && f.target.cloudService])).toEqual([
      ['CKV_AWS_161', 'terraform'],
      ['CKV_AWS_16', 'terraform'],
      ['CKV_AWS_129', 'terraform'],
      ['CKV_AWS_157', 'terraform'],
      ['CKV_DOCKER_3', 'dockerfile'],
      ['CKV_DOCKER_2', 'dockerfile'],
    ])
    // A whole-file check ([0, 0]) has no line range.
    expect(scan.findings[4]?.raw).toMatchObject({ location: '/infra/terraform/aws/resources/Dockerfile' })
    expect(scan.findings[4]?.raw.lines).toBeUndefined()
  })

  it('reads an empty report and the bare summary of a scan of nothing', async () => {
    expect((await parse('checkov-report-0-vuln.json')).findings).toEqual([])
    const bare = await parse('checkov2-report-0-vuln.json')
    expect(bare.findings).toEqual([])
    expect(bare.tool.version).toBe('2.1.269')
    expect(detectFormat(fixtureText('checkov_json', 'checkov2-report-0-vuln.json'))?.format).toBe('checkov_json')
  })

  it('gives the same findings and fingerprints for the same file read twice, and a framework placed after its checks still files them', async () => {
    const once = await parse('checkov-report-severity.json')
    const twice = await parse('checkov-report-severity.json')
    expect(twice.findings).toEqual(once.findings)
    const fingerprints = (s: typeof once) => Promise.all(s.findings.map((f) => parsedFingerprint('cloud', f)))
    expect(await fingerprints(twice)).toEqual(await fingerprints(once))
    expect(new Set(await fingerprints(once)).size).toBe(once.findings.length)
    const report = JSON.parse(fixtureText('checkov_json', 'checkov-report-1-vuln.json')) as Record<string, unknown>
    const { check_type: checkType, ...rest } = report
    const late = await parseText(checkovJsonParser, JSON.stringify([{ ...rest, check_type: checkType }]))
    expect(late.findings.map((f) => f.target)).toEqual((await parse('checkov-report-1-vuln.json')).findings.map((f) => f.target))
  })

  it('skips checks it cannot read, counts a repeated check once and refuses a broken file with its line', async () => {
    const check = { check_id: 'CKV_X_1', file_path: '/a.tf', resource: 'r.a', file_line_range: [1, 2] }
    const scan = await parseText(
      checkovJsonParser,
      JSON.stringify({
        check_type: 'terraform',
        results: { failed_checks: [check, 'no', { check_id: 'CKV_X_2' }, check], parsing_errors: ['/b.tf'] },
      }),
    )
    expect(scan.findings.map((f) => f.ruleId)).toEqual(['CKV_X_1'])
    expect(scan.statistics).toMatchObject({ duplicateChecks: 1, parsingErrors: 1 })
    expect(scan.notes.map((n) => n.message)).toEqual([
      'the check is not an object',
      'CKV_X_2: no check id, resource or file',
      'Checkov could not parse /b.tf',
    ])
    const broken = fixtureText('checkov_json', 'checkov-report-1-vuln.json').replace(
      '"resource": "azurerm_key_vault.main",',
      '"resource": "azurerm_key_vault.main"',
    )
    const error = await parseText(checkovJsonParser, broken).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^Checkov JSON, line 2\d .*not valid JSON/)
    const deep = `{"check_type": "terraform", "results": {"failed_checks": [{"check_id": "CKV_X_1", "x": ${'['.repeat(100)}${']'.repeat(100)}}]}}`
    await expect(parseText(checkovJsonParser, deep)).rejects.toThrow('Checkov JSON, line 1: nested deeper than 64 levels')
    await expect(parseText(checkovJsonParser, '{"other": 1}')).rejects.toThrow(/^Checkov JSON, file: .*not a Checkov report/)
  })
})
