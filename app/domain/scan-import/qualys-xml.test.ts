import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'
import { qualysXmlParser } from './qualys-xml.ts'

const text = (name: string) => fixtureText('qualys_xml', name)
const parse = (name: string, chunk?: number) => parseText(qualysXmlParser, text(name), chunk)
const refusal = (xml: string) =>
  parseText(qualysXmlParser, xml, 256).then(
    () => null,
    (e: unknown) => e,
  )

describe('qualysXmlParser on the host based report (ASSET_DATA_REPORT)', () => {
  it('Qualys_Sample_Report.xml: QIDs joined to the glossary after the hosts, severities, CVSS 3 with its vector, ports, names', async () => {
    const scan = await parse('Qualys_Sample_Report.xml', 700)
    expect(scan.tool).toEqual({ name: 'Qualys VM', version: '' })
    expect(scan.targets).toEqual(['64.41.200.243-64.41.200.250'])
    expect(scan.finishedAt).toBe(Date.parse('2021-04-19T02:35:28Z'))
    expect(scan.statistics).toMatchObject({ hosts: 2, items: 63, findings: 63, fixed: 0 })
    expect(severityCounts(scan)).toEqual({ critical: 2, high: 1, medium: 4, low: 6, info: 50 })
    const amd = scan.findings.find((f) => f.ruleId === 'qualys:370876')
    expect(amd).toMatchObject({
      severity: 'high',
      tags: ['potential'],
      target: { kind: 'host', host: 'demo13.s02.sjc01.qualys.com', ip: '64.41.200.243', protocol: 'tcp' },
      cvss: { version: '3.0', vector: 'AV:N/AC:H/PR:N/UI:N/S:C/C:H/I:H/A:H', score: 9 },
      raw: { qid: '370876', type: 'potential', qualysSeverity: '4' },
    })
    expect(amd?.cve).toHaveLength(7)
    const bluekeep = scan.findings.find((f) => f.ruleId === 'qualys:91541')
    expect(bluekeep).toMatchObject({ severity: 'critical', cve: ['CVE-2019-0708'], tags: ['exploit-available'] })
    expect(scan.findings.find((f) => f.ruleId === 'qualys:90783')?.tags).toEqual(['exploit-available', 'malware'])
    const weakKey = scan.findings.find((f) => f.ruleId === 'qualys:38738')
    expect(weakKey).toMatchObject({
      severity: 'low',
      target: { port: 22, protocol: 'tcp' },
      evidence: 'Algorithm\tLength\nssh-dss\t1024 bits',
    })
    expect(weakKey?.description).toMatch(/\S/)
    expect(scan.assets.map((a) => [a.type, a.value, a.parent])).toEqual([
      ['ip', '64.41.200.243', undefined],
      ['host', 'demo13.s02.sjc01.qualys.com', '64.41.200.243'],
      ['ip', '64.41.200.247', undefined],
      ['host', 'trn-win7.trn.qualys.com', '64.41.200.247'],
      ['host', 'TRN-WIN7', '64.41.200.247'],
    ])
    expect(scan.assets[2]).toMatchObject({
      ports: [{ port: 3389, protocol: 'tcp', service: 'win remote desktop' }],
      raw: { os: 'Windows 2008 R2/7', trackingMethod: 'NETBIOS', assetGroups: ['App1_Asset_Group'] },
    })
    expect(scan.notes).toEqual([])
  })

  it('synthetic-host-report.xml: a fixed item counted and left out, HTML undone, a QID missing from the glossary said', async () => {
    const scan = await parse('synthetic-host-report.xml')
    expect(scan.statistics).toMatchObject({ items: 3, fixed: 1, findings: 3 })
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['qualys:91850', 'critical'],
      ['qualys:70000', 'info'],
      ['qualys:99999', 'info'],
    ])
    expect(scan.findings[0]).toMatchObject({
      target: { kind: 'host', host: 'db01.example.test', ip: '192.0.2.20', port: 445, protocol: 'tcp' },
      cvss: { version: '3.0', vector: 'AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', score: 8.8 },
      cve: ['CVE-2021-36942', 'CVE-2021-34481'],
      remediation: 'Install the update. KB5005030',
      description:
        'Microsoft releases the security update for Windows August 2021.\n\nImpact: Successful exploitation allows an attacker to execute code.',
      references: [
        'https://msrc.example.test/KB5005030',
        'https://nvd.nist.gov/vuln/detail/CVE-2021-36942',
        'https://nvd.nist.gov/vuln/detail/CVE-2021-34481',
      ],
      raw: { status: 'Active', timesFound: 5, vendorReferences: ['KB5005030'], pciFlag: true },
    })
    expect(scan.findings[2]?.title).toBe('QID 99999')
    expect(scan.notes.map((n) => n.message)).toEqual([
      "QID 99999: not in the report's glossary, imported without its text",
      'QID 99999: severity null read as info',
    ])
    expect(scan.assets[0]?.ports).toEqual([
      { port: 445, protocol: 'tcp', service: 'microsoft-ds' },
      { port: 137, protocol: 'udp' },
    ])
  })

  it('empty.xml: a report without hosts is an empty scan', async () => {
    const scan = await parse('empty.xml')
    expect(scan).toMatchObject({ findings: [], assets: [], targets: [], statistics: { hosts: 0, findings: 0 } })
  })
})

describe('qualysXmlParser on the scan results (SCAN)', () => {
  it('qualys_infrascan_webgui_multiple.xml: two hosts, vulnerabilities, potential ones and information gathered; times from the header', async () => {
    const scan = await parse('qualys_infrascan_webgui_multiple.xml')
    expect(scan.startedAt).toBe(Date.parse('2019-04-02T10:14:53Z'))
    expect(scan.finishedAt).toBe(Date.parse('2019-04-02T10:14:53Z') + (4 * 3600 + 29 * 60 + 11) * 1000)
    expect(scan.targets).toEqual(['10.1.10.1', '10.2.10.2'])
    expect(severityCounts(scan)).toEqual({ critical: 4, low: 4, info: 16 })
    const java = scan.findings.find((f) => f.ruleId === 'qualys:123168')
    expect(java).toMatchObject({ severity: 'critical', tags: ['exploit-available'], raw: { cvssBase: 10, cvss3Base: 3.4 } })
    expect(java?.cvss).toBeUndefined()
    expect(java?.cve).toHaveLength(19)
    expect(scan.findings.find((f) => f.ruleId === 'qualys:124848')?.tags).toContain('potential')
  })

  it('synthetic-scan.xml: ports and protocols from the category, one finding per QID and port, a host without a registered name', async () => {
    const scan = await parse('synthetic-scan.xml', 300)
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'host' && f.target.port])).toEqual([
      ['qualys:38628', 'medium', 443],
      ['qualys:150004', 'high', 443],
      ['qualys:11827', 'critical', 443],
      ['qualys:86002', 'info', 443],
      ['qualys:82023', 'info', undefined],
      ['qualys:78031', 'low', 161],
    ])
    const tls = scan.findings[0]
    expect(tls?.description).toBe(
      'The scan target supports version 1.0 of the TLS protocol.\n\nThat version is deprecated.\n\nImpact: An attacker can exploit cryptographic flaws to conduct man-in-the-middle attacks.',
    )
    expect(tls?.raw).toMatchObject({ moreResults: ['TLSv1.0 with ECDHE-RSA-AES128-SHA'], fqdn: 'www.example.test' })
    expect(scan.statistics.duplicateItems).toBe(1)
    expect(scan.findings[5]?.target).toEqual({ kind: 'host', host: '192.0.2.11', ip: '192.0.2.11', port: 161, protocol: 'udp' })
    expect(scan.assets.map((a) => [a.type, a.value])).toEqual([
      ['ip', '192.0.2.10'],
      ['host', 'www.example.test'],
      ['host', 'WWW01'],
      ['ip', '192.0.2.11'],
    ])
  })

  it('empty-scan.xml: a host without items is an asset and no finding', async () => {
    const scan = await parse('empty-scan.xml')
    expect(scan.findings).toEqual([])
    expect(scan.assets.map((a) => a.value)).toEqual(['10.1.10.1', 'host1.example.com'])
  })
})

describe('Qualys findings in the network service', () => {
  it('gives the same findings and distinct fingerprints when the same file is imported again', async () => {
    for (const name of ['Qualys_Sample_Report.xml', 'synthetic-scan.xml', 'qualys_infrascan_webgui_multiple.xml']) {
      const first = await parse(name)
      const again = await parse(name, 123)
      expect(again).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('network', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the network page and recognised by content: every Qualys file, and no other format's file", () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('qualys_xml')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'qualys_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'qualys_xml',
      )
    expect(detectFormat('<?xml version="1.0"?><SCAN><item/></SCAN>')).toBeNull()
  })
})

describe('qualysXmlParser refuses', () => {
  it('another XML, in words naming the format and line', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<nmaprun/>')).resolves.toMatchObject({
      message:
        "Qualys VM XML, line 2: the root element is <nmaprun>, not Qualys's <SCAN> (scan results) or <ASSET_DATA_REPORT> (host based report)",
    })
  })

  it('entity expansion, deep nesting, a huge attribute and a truncated file', async () => {
    await expect(refusal(fixtureText('hostile', 'billion-laughs.xml'))).resolves.toMatchObject({
      message: expect.stringMatching(/^Qualys VM XML, line \d+: the DOCTYPE declares entities/),
    })
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<SCAN value="scan/1">\n<IP value="192.0.2.1">\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</IP></SCAN>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Qualys VM XML, line 3: elements nested deeper than ${depth}` })
    const huge = `<SCAN value="scan/1">\n<IP value="${'1'.repeat(1_048_577)}"/></SCAN>`
    await expect(refusal(huge)).resolves.toMatchObject({
      formatLabel: 'Qualys VM XML',
      reason: expect.stringMatching(/characters without markup/),
    })
    const cut = text('Qualys_Sample_Report.xml').slice(0, 30_000)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect(error).toMatchObject({ formatLabel: 'Qualys VM XML', where: `line ${cut.split('\n').length}` })
  })
})
