import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'
import { pingcastleSeverity, pingcastleXmlParser } from './pingcastle-xml.ts'

const text = (name: string) => fixtureText('pingcastle_xml', name)
const parse = (name: string, chunk?: number) => parseText(pingcastleXmlParser, text(name), chunk)
const refusal = (xml: string) =>
  parseText(pingcastleXmlParser, xml, 256).then(
    () => null,
    (e: unknown) => e,
  )

describe('pingcastleXmlParser on PingCastle 3.2 reports', () => {
  it('many.xml: every risk rule a finding on the domain rated by its points, the scores kept, the domain and its controller as assets', async () => {
    const scan = await parse('many.xml', 500)
    expect(scan.tool).toEqual({ name: 'PingCastle', version: '3.2.0.1' })
    expect(scan.finishedAt).toBe(Date.parse('2024-06-06T13:01:09.264+02:00'))
    expect(scan.targets).toEqual(['example.local'])
    expect(scan.statistics).toMatchObject({
      rules: 28,
      findings: 28,
      domainControllers: 1,
      'score:Global': 70,
      'score:StaleObjects': 36,
      'score:PrivilegedGroup': 70,
      'score:Trust': 0,
      'score:Anomaly': 65,
      maturityLevel: 2,
    })
    expect(severityCounts(scan)).toEqual({ high: 2, medium: 10, low: 5, info: 11 })
    expect(scan.findings[0]).toEqual({
      ruleId: 'pingcastle:P-AdminLogin',
      title: 'P-AdminLogin: The native administrator account has been used recently: 0 day(s) ago',
      severity: 'high',
      target: { kind: 'host', host: 'example.local' },
      tags: ['PrivilegedAccounts', 'AdminControl'],
      description: 'The native administrator account has been used recently: 0 day(s) ago',
      evidence: 'The native administrator account has been used recently: 0 day(s) ago',
      raw: { riskId: 'P-AdminLogin', points: 20, category: 'PrivilegedAccounts', model: 'AdminControl' },
    })
    expect(scan.assets).toEqual([
      {
        type: 'domain',
        value: 'example.local',
        raw: {
          netBIOSName: 'EXAMPLE',
          forestFQDN: 'example.local',
          domainSid: 'S-1-5-21-1111111111-2222222222-3333333333',
          domainFunctionalLevel: '7',
          forestFunctionalLevel: '7',
          level: 'Normal',
        },
      },
      {
        type: 'host',
        value: 'DC-NQ7M31',
        parent: 'example.local',
        raw: expect.objectContaining({ ips: ['fe80::2a9', '198.51.10'], rodc: false, smb1: false, remoteSpooler: true }),
      },
    ])
  })

  it('one.xml and zero.xml: one rule is one finding; a domain without rules is an empty scan with its assets', async () => {
    expect((await parse('one.xml')).findings.map((f) => [f.ruleId, f.severity])).toEqual([['pingcastle:A-MinPwdLen', 'medium']])
    const zero = await parse('zero.xml')
    expect(zero).toMatchObject({ findings: [], targets: ['example.local'], statistics: { rules: 0, findings: 0 } })
    expect(zero.assets.map((a) => a.value)).toEqual(['example.local', 'DC-NQ7M31'])
  })
})

describe('pingcastleXmlParser on a PingCastle 2 report (synthetic)', () => {
  it('a CVE named in the rationale, the details as evidence, trust rules, two controllers', async () => {
    const scan = await parse('synthetic-pingcastle-2.xml', 100)
    expect(scan.tool.version).toBe('2.11.0.1')
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['pingcastle:A-DC-ZeroLogon', 'critical'],
      ['pingcastle:P-DCOwner', 'critical'],
      ['pingcastle:T-SIDFiltering', 'high'],
      ['pingcastle:S-SMB-v1', 'low'],
      ['pingcastle:A-AuditDC', 'info'],
    ])
    expect(scan.findings[0]).toMatchObject({
      cve: ['CVE-2020-1472'],
      evidence: 'The DC is vulnerable to ZeroLogon (CVE-2020-1472): 1 DC(s)\nDomain controller: DC01',
      raw: { details: ['Domain controller: DC01'], points: 100 },
    })
    expect(scan.statistics).not.toHaveProperty('maturityLevel')
    expect(scan.assets.map((a) => [a.type, a.value, a.parent])).toEqual([
      ['domain', 'corp.example.test', undefined],
      ['host', 'DC01', 'corp.example.test'],
      ['host', 'DC02', 'corp.example.test'],
    ])
    expect(scan.assets[1]?.raw).toMatchObject({ smb1: true, nullSession: true, fsmo: ['PDC'] })
  })

  it('rates points on five bands', () => {
    expect([0, 1, 5, 10, 15, 20, 40, 50, 100].map(pingcastleSeverity)).toEqual([
      'info',
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
      'critical',
    ])
  })
})

describe('PingCastle findings in the network service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['many.xml', 'synthetic-pingcastle-2.xml']) {
      const first = await parse(name)
      expect(await parse(name, 71)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('network', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it('a rule listed twice is one finding', async () => {
    const rule = '<HealthcheckRiskRule><Points>10</Points><RiskId>A-MinPwdLen</RiskId><Rationale>short</Rationale></HealthcheckRiskRule>'
    const scan = await parseText(
      pingcastleXmlParser,
      `<HealthcheckData><DomainFQDN>corp.example.test</DomainFQDN><RiskRules>${rule}${rule}</RiskRules></HealthcheckData>`,
    )
    expect(scan.findings).toHaveLength(1)
    expect(scan.statistics.duplicateRules).toBe(1)
  })

  it("is offered on the network page and recognised by content: every PingCastle file, and no other format's file", () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('pingcastle_xml')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'pingcastle_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'pingcastle_xml',
      )
  })
})

describe('pingcastleXmlParser refuses', () => {
  it('another XML and a report without its domain, in words', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<HealthcheckConsolidation/>')).resolves.toMatchObject({
      message:
        'PingCastle XML, line 2: the root element is <HealthcheckConsolidation>, not <HealthcheckData>: export the health-check report (ad_hc_<domain>.xml)',
    })
    await expect(refusal('<HealthcheckData><RiskRules/></HealthcheckData>')).resolves.toMatchObject({
      message: 'PingCastle XML, file: no <DomainFQDN>: the report does not say which domain it checked',
    })
  })

  it('entity expansion, deep nesting, a huge attribute and a truncated file, with the line', async () => {
    await expect(refusal(fixtureText('hostile', 'billion-laughs.xml'))).resolves.toMatchObject({
      message: expect.stringMatching(/^PingCastle XML, line \d+: the DOCTYPE declares entities/),
    })
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<HealthcheckData>\n<UserAccountData>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</UserAccountData></HealthcheckData>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `PingCastle XML, line 3: elements nested deeper than ${depth}` })
    const huge = `<HealthcheckData IntegrityRules="${'x'.repeat(1_048_577)}"></HealthcheckData>`
    await expect(refusal(huge)).resolves.toMatchObject({
      formatLabel: 'PingCastle XML',
      reason: expect.stringMatching(/characters without markup/),
    })
    const cut = text('many.xml').slice(0, 5_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'PingCastle XML', where: `line ${cut.split('\n').length}` })
  })
})
