import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { nexposeDate, nexposeXmlParser } from './nexpose-xml.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'

const text = (name: string) => fixtureText('nexpose_xml', name)
const parse = (name: string, chunk?: number) => parseText(nexposeXmlParser, text(name), chunk)
const refusal = (xml: string) =>
  parseText(nexposeXmlParser, xml, 256).then(
    () => null,
    (e: unknown) => e,
  )

describe('nexposeXmlParser on public reports', () => {
  it('many_vulns.xml (XML 1.0): vulnerable tests only, rated by the definition after the nodes, ports and services from the endpoints', async () => {
    const scan = await parse('many_vulns.xml', 900)
    expect(scan.tool).toEqual({ name: 'Nexpose', version: '' })
    expect(scan.startedAt).toBe(Date.UTC(2013, 10, 27, 5, 2, 42, 739))
    expect(scan.finishedAt).toBe(Date.UTC(2013, 10, 27, 11, 55, 13, 233))
    expect(scan.targets).toEqual(['192.168.1.1', '192.168.1.33', '192.168.1.34', '192.168.1.38'])
    expect(scan.statistics).toMatchObject({
      xmlVersion: 1,
      nodes: 4,
      tests: 268,
      vulnerableTests: 22,
      'status:not-vulnerable': 211,
      'status:skipped-version': 33,
      duplicateTests: 1,
      findings: 21,
    })
    expect(severityCounts(scan)).toEqual({ critical: 1, high: 3, medium: 7, low: 10 })
    const root = scan.findings.find((f) => f.ruleId === 'nexpose:ssh-default-account-root-password-root')
    expect(root).toMatchObject({
      severity: 'critical',
      target: { kind: 'host', host: '192.168.1.1', ip: '192.168.1.1', port: 22, protocol: 'tcp' },
      cvss: { version: '2.0', vector: 'AV:N/AC:L/Au:N/C:C/I:C/A:C', score: 10 },
      raw: {
        vulnerabilityId: 'ssh-default-account-root-password-root',
        nexposeSeverity: 10,
        status: 'vulnerable-exploited',
        service: 'SSH',
      },
    })
    expect(root?.evidence).toMatch(/^Successfully authenticated to the SSH service with credentials: uid\[root\] pw\[root\]/)
    const ntp = scan.findings.find((f) => f.ruleId === 'nexpose:ntpd-crypto-recv-buffer-overflow')
    expect(ntp).toMatchObject({ severity: 'high', target: { port: 123, protocol: 'udp' } })
    expect(ntp?.cve).toHaveLength(1)
    expect(ntp?.remediation).toMatch(/\S/)
    expect(ntp?.raw.advisories).toEqual(expect.arrayContaining([expect.stringMatching(/^(BID|SECUNIA|CERT-VN|OSVDB|XF|REDHAT):/)]))
    expect(scan.assets[0]).toMatchObject({
      type: 'ip',
      value: '192.168.1.1',
      ports: [
        { port: 21, protocol: 'tcp', service: 'ftp' },
        { port: 22, protocol: 'tcp', service: 'ssh', product: 'Dropbear', version: '0.51' },
        { port: 23, protocol: 'tcp', service: 'telnet' },
        { port: 80, protocol: 'tcp', service: 'http', product: 'ACME Laboratories mini_httpd', version: '1.19' },
      ],
      raw: { os: 'Linux 2.6.9', deviceClass: 'General', osCertainty: 0.7 },
    })
    expect(scan.notes).toEqual([])
  })

  it('report_auth.xml (XML 2.0): names as the host, a check found again under another key is one finding with its proofs', async () => {
    const scan = await parse('report_auth.xml')
    expect(scan.statistics).toMatchObject({ xmlVersion: 2, vulnerableTests: 26, duplicateTests: 12, findings: 14 })
    const homes = scan.findings.filter((f) => f.ruleId === 'nexpose:unix-user-home-dir-mode')
    expect(homes.map((f) => f.target.kind === 'host' && f.target.host)).toEqual(['host0', 'host1', 'host3', 'host4'])
    expect(homes[0]?.raw.moreEvidence).toHaveLength(3)
    expect(homes[0]?.raw).toMatchObject({
      status: 'vulnerable-version',
      pciStatus: 'pass',
      vulnerableSince: expect.stringMatching(/^2021/),
    })
    expect(scan.findings.find((f) => f.ruleId === 'nexpose:linux-grub-missing-passwd')?.evidence).toBe(
      'Grub config with no password found.\n\n- Vulnerable file: /boot/grub/grub.cfg',
    )
    expect(scan.assets.slice(0, 2)).toEqual([
      {
        type: 'ip',
        value: '192.168.0.12',
        ports: [],
        technologies: [],
        raw: {
          os: 'Ubuntu Linux 20.04',
          osCertainty: 1,
          site: 'Site1',
          siteImportance: 'Normal',
          riskScore: 2649.9238,
          scanTemplate: 'Discovery Scan,Full audit',
        },
      },
      { type: 'host', value: 'host0', parent: '192.168.0.12' },
    ])
  })

  it('dns.xml (XML 2.0): the same check over TCP and UDP at port 53 is two findings; nested list items read as lines', async () => {
    const scan = await parse('dns.xml')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'host' && `${f.target.port}/${f.target.protocol}`])).toEqual([
      ['nexpose:dns-allows-cache-snooping', 'medium', '53/tcp'],
      ['nexpose:dns-processes-recursive-queries', 'medium', '53/tcp'],
      ['nexpose:dns-allows-cache-snooping', 'medium', '53/udp'],
      ['nexpose:dns-processes-recursive-queries', 'medium', '53/udp'],
      ['nexpose:dns-amplification', 'low', '53/udp'],
    ])
    expect(scan.findings[1]?.evidence).toBe('Nameserver resolved www.google.com to:\n\n- www.google.com. 12 IN A 172.217.17.100')
    expect(scan.assets[0]?.raw).toMatchObject({ mac: '001122334455', scanTemplate: 'Full audit' })
  })

  it('no_vuln.xml: a vulnerable test whose definition is missing is imported as info and said', async () => {
    const scan = await parse('no_vuln.xml')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.title])).toEqual([
      ['nexpose:tcp-seq-num-approximation', 'info', 'tcp-seq-num-approximation'],
    ])
    expect(scan.notes.map((n) => n.message)).toEqual([
      'tcp-seq-num-approximation: no definition in the report, imported without its text',
      'tcp-seq-num-approximation: no severity, read as info',
    ])
  })
})

describe('nexposeXmlParser on InsightVM 2.0 shapes (synthetic)', () => {
  it('CVEs and CWEs from the references, exploits and malware as tags, CVSS 3.1, a potential test, software as technologies', async () => {
    const scan = await parse('synthetic-insightvm.xml', 200)
    expect(scan.startedAt).toBe(Date.UTC(2024, 11, 2, 10))
    expect(scan.finishedAt).toBe(Date.UTC(2024, 11, 2, 12, 10))
    const [log4j, tls, iis] = scan.findings
    expect(log4j).toMatchObject({
      ruleId: 'nexpose:apache-log4j-core-cve-2021-44228',
      severity: 'critical',
      target: { kind: 'host', host: 'app01.example.test', ip: '192.0.2.50', protocol: 'tcp' },
      cve: ['CVE-2021-44228'],
      cwe: ['CWE-502', 'CWE-917'],
      tags: ['exploit-available', 'malware'],
      references: ['https://logging.apache.org/log4j/2.x/security.html'],
      remediation:
        '- Upgrade Apache Log4j to 2.17.1 or later.\n- Remove the JndiLookup class from the class path:\n\nzip -q -d log4j-core-*.jar org/apache/logging/log4j/core/lookup/JndiLookup.class',
      raw: { key: 'C:\\app\\lib\\log4j-core-2.14.1.jar', malware: ['Khonsari'], advisories: ['CISA:CISA-KEV'] },
    })
    expect(log4j?.raw.moreEvidence).toEqual(['Vulnerable file: D:\\tools\\lib\\log4j-core-2.14.1.jar'])
    // Definitions are matched whatever the case of the test's id.
    expect(tls).toMatchObject({
      ruleId: 'nexpose:tls-version-1.0',
      severity: 'low',
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N', score: 4 },
      evidence: 'Successfully connected over TLSv1.0 to https://app01.example.test/',
    })
    expect(iis).toMatchObject({ ruleId: 'nexpose:http-iis-0010', tags: ['potential'] })
    expect(scan.assets.map((a) => [a.type, a.value])).toEqual([
      ['ip', '192.0.2.50'],
      ['host', 'app01.example.test'],
      ['host', 'APP01'],
    ])
    expect(scan.assets[0]).toMatchObject({ technologies: ['Apache Log4j 2.14.1'], raw: { os: 'Microsoft Windows Server 2019 1809' } })
  })

  it('empty.xml: no vulnerable test is an empty scan with its host', async () => {
    const scan = await parse('empty.xml')
    expect(scan.findings).toEqual([])
    expect(scan.statistics).toMatchObject({ tests: 1, vulnerableTests: 0, findings: 0 })
    expect(scan.assets.map((a) => a.value)).toEqual(['192.0.2.40', 'printer.example.test'])
  })

  it('reads its dates as UTC', () => {
    expect(nexposeDate('20210228T225351463')).toBe(Date.UTC(2021, 1, 28, 22, 53, 51, 463))
    expect(nexposeDate('')).toBeNull()
  })
})

describe('Nexpose findings in the network service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['many_vulns.xml', 'report_auth.xml', 'dns.xml', 'synthetic-insightvm.xml']) {
      const first = await parse(name)
      expect(await parse(name, 77)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('network', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the network page and recognised by content: every Nexpose file, and no other format's file", () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('nexpose_xml')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'nexpose_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'nexpose_xml',
      )
  })
})

describe('nexposeXmlParser refuses', () => {
  it('a Simple XML export and another XML, in words', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<NeXposeSimpleXML version="1.0"><devices/></NeXposeSimpleXML>')).resolves.toMatchObject({
      message: 'Nexpose XML, line 2: a Nexpose "Simple XML" report: export the report as "XML Export 2.0"',
    })
    await expect(refusal('<nmaprun/>')).resolves.toMatchObject({
      message: 'Nexpose XML, line 1: the root element is <nmaprun>, not <NexposeReport>',
    })
  })

  it('entity expansion, deep nesting, a huge attribute and a truncated file, with the line', async () => {
    await expect(refusal(fixtureText('hostile', 'xxe.xml'))).resolves.toMatchObject({
      message: expect.stringMatching(/^Nexpose XML, line \d+: the DOCTYPE declares entities/),
    })
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<NexposeReport version="2.0">\n<nodes>\n<node address="192.0.2.1">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</node></nodes></NexposeReport>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Nexpose XML, line 3: elements nested deeper than ${depth}` })
    const huge = `<NexposeReport version="2.0">\n<nodes><node address="${'1'.repeat(1_048_577)}"/></nodes></NexposeReport>`
    await expect(refusal(huge)).resolves.toMatchObject({
      formatLabel: 'Nexpose XML',
      reason: expect.stringMatching(/characters without markup/),
    })
    const cut = text('report_auth.xml').slice(0, 9_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Nexpose XML', where: `line ${cut.split('\n').length}` })
  })
})
