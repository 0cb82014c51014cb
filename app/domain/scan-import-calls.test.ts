import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText } from '../../tests/support/scan-fixtures.ts'
import { ParsedAssetSchema, ParsedFindingSchema } from './scan-import-calls.ts'
import { parserFor } from './scan-import/formats.ts'
import type { ParsedScan, ScanFormat } from './scan-import/parsed-scan.ts'
import { importPasswordAudit } from './scan-import/password-audit-import.ts'
import { textChunks } from './scan-import/text-source.ts'

function expectAccepted(scan: ParsedScan) {
  for (const finding of scan.findings) {
    const parsed = v.safeParse(ParsedFindingSchema, finding)
    expect(parsed.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? [], finding.title).toEqual([])
  }
  for (const asset of scan.assets) {
    const parsed = v.safeParse(ParsedAssetSchema, asset)
    expect(parsed.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? [], asset.value).toEqual([])
  }
}

describe('the import contract', () => {
  // What the browser sends is what the parsers made: every fixture's result passes the callables' schemas.
  const fixtures = allFixtures().filter(({ format }) => parserFor(format as ScanFormat) && format !== 'ntds_potfile')

  it.each(fixtures.map((f) => [`${f.format}/${f.name}`, f] as const))('accepts what the parser makes of %s', async (_, fixture) => {
    expectAccepted(await parseText(parserFor(fixture.format as ScanFormat)!, fixture.text))
  })

  it('accepts what a password audit derives', async () => {
    const scan = await importPasswordAudit({
      ntds: textChunks(fixtureText('ntds_potfile', 'acme.ntds')),
      pots: [textChunks(fixtureText('ntds_potfile', 'hashcat.potfile')), textChunks(fixtureText('ntds_potfile', 'john.pot'))],
      companyNames: ['Acme'],
      policyMinLength: 10,
      privilegedAccounts: ['Administrator'],
      reuseKey: new Uint8Array(32).fill(7),
    })
    expect(scan.findings.length).toBeGreaterThan(0)
    expectAccepted(scan)
  })

  it('refuses a finding with a field the contract does not know, such as a password', () => {
    const finding = {
      ruleId: 'cracked',
      title: 'Cracked',
      severity: 'high',
      target: { kind: 'account', domain: 'ACME', account: 'bob' },
      raw: {},
    }
    expect(v.safeParse(ParsedFindingSchema, finding).success).toBe(true)
    expect(v.safeParse(ParsedFindingSchema, { ...finding, password: 'Summer2024!' }).success).toBe(false)
    const asset = {
      type: 'account',
      value: 'ACME\\bob',
      account: {
        masked: '********',
        cracked: true,
        length: 6,
        classes: [],
        patterns: [],
        privileged: false,
        reuseCluster: null,
        reuseCount: 0,
      },
    }
    expect(v.safeParse(ParsedAssetSchema, asset).success).toBe(true)
    expect(v.safeParse(ParsedAssetSchema, { ...asset, account: { ...asset.account, ntHash: 'aad3' } }).success).toBe(false)
  })
})
