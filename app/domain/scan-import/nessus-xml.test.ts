import { describe, expect, it } from 'vitest'
import { fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { NESSUS_MAX_RUN_CHARS, nessusXmlParser, parseNessusXml } from './nessus-xml.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, type ParsedScan } from './parsed-scan.ts'
import { MAX_XML_RUN_CHARS } from './xml-stream.ts'
import { textChunks } from './text-source.ts'

const text = (name: string) => fixtureText('nessus_xml', name)
const parse = (name: string, chunk?: number) => parseText(nessusXmlParser, text(name), chunk)
const byRule = (scan: ParsedScan, ruleId: string) => scan.findings.filter((f) => f.ruleId === ruleId)

describe('parseNessusXml on public .nessus files', () => {
  it('nessus_with_cvssv3.nessus (Nessus 10.1.1): severities, CVSS 3.0 before 2.0, CVEs, CWEs and the host asset', async () => {
    const scan = await parse('nessus_with_cvssv3.nessus')
    expect(scan.tool).toEqual({ name: 'Nessus', version: '10.1.1' })
    expect(scan.startedAt).toBe(1648042311000)
    expect(scan.finishedAt).toBe(1648044472000)
    expect(scan.targets).toEqual(['testphp.vulnweb.com'])
    expect(scan.statistics).toMatchObject({ hosts: 1, items: 49, portScannerItems: 1, duplicateItems: 1, findings: 46 })
    expect(severityCounts(scan)).toEqual({ critical: 1, high: 10, medium: 13, low: 1, info: 21 })
    const [browsable] = byRule(scan, 'nessus:40984')
    expect(browsable).toMatchObject({
      title: 'Browsable Web Directories',
      severity: 'medium',
      target: { kind: 'host', host: 'testphp.vulnweb.com', ip: '44.228.249.3', port: 80, protocol: 'tcp' },
      cvss: { version: '3.0', vector: 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 5.3 },
      references: ['http://www.nessus.org/u?0a35179e'],
      raw: { pluginId: '40984', pluginFamily: 'CGI abuses', service: 'www', riskFactor: 'Medium', fname: 'browsable_web_dir.nasl' },
    })
    expect(browsable?.evidence).toMatch(/^The following directories are browsable :\n\nhttp:\/\/testphp\.vulnweb\.com\/CVS\/\n/)
    const [php] = byRule(scan, 'nessus:31649')
    expect(php?.cwe).toEqual(['CWE-94', 'CWE-119', 'CWE-399'])
    expect(php?.cve).toHaveLength(15)
    expect(php?.cvss).toEqual({ version: '2.0', vector: 'AV:N/AC:L/Au:N/C:P/I:P/A:P', score: 7.5 })
    expect(php?.remediation).toBe('Upgrade to PHP version 5.2.0 or later.')
    // The same plugin twice at one port is one finding, the second output kept on it.
    const unsupported = byRule(scan, 'nessus:58987')
    expect(unsupported).toHaveLength(1)
    expect(unsupported[0]).toMatchObject({ severity: 'critical', tags: ['unsupported'], raw: { iava: ['0001-A-0581'] } })
    expect(unsupported[0]?.raw.moreOutput).toEqual([expect.stringContaining('Installed version : 5.1.6')])
    // "n/a" is no remediation.
    expect(byRule(scan, 'nessus:45590')[0]?.remediation).toBeUndefined()
    expect(scan.assets.map((a) => [a.type, a.value, a.parent])).toEqual([
      ['ip', '44.228.249.3', undefined],
      ['host', 'testphp.vulnweb.com', '44.228.249.3'],
    ])
    expect(scan.assets[0]).toMatchObject({
      ports: [{ port: 80, protocol: 'tcp', service: 'www' }],
      technologies: expect.arrayContaining(['Nginx 1.19.0', 'PHP PHP 5.1.6']),
      raw: { os: 'Linux Kernel 2.6', systemType: 'general-purpose', reverseDns: 'ec2-44-228-249-3.us-west-2.compute.amazonaws.com' },
    })
    expect(scan.notes).toEqual([])
  })

  it('nessus_v_unknown.xml (Nessus 5.2.1): two Windows hosts, their NetBIOS names once, open ports from the port scanners', async () => {
    const scan = await parse('nessus_v_unknown.xml', 1000)
    expect(scan.tool.version).toBe('5.2.1')
    expect(scan.targets).toEqual(['QA3app01', 'QA3app02', 'QA3app03', 'QA3app04', 'QA3app05', 'QA3app06', 'QA3app09'])
    expect(scan.statistics).toMatchObject({ hosts: 2, items: 84, portScannerItems: 10, openPorts: 24, findings: 72 })
    expect(severityCounts(scan)).toEqual({ medium: 7, low: 2, info: 63 })
    expect(scan.assets.map((a) => [a.type, a.value])).toEqual([
      ['ip', '10.31.112.29'],
      ['host', 'qa3app09'],
      ['ip', '10.31.112.26'],
      ['host', 'qa3app06'],
    ])
    expect(scan.assets[0]?.ports).toHaveLength(12)
    const [nla] = byRule(scan, 'nessus:58453')
    expect(nla).toMatchObject({
      severity: 'medium',
      target: { host: 'qa3app09', ip: '10.31.112.29', port: 3389, protocol: 'tcp' },
      raw: { cpe: ['cpe:/o:microsoft:windows', 'cpe:/a:microsoft:remote_desktop_protocol'] },
    })
    expect(byRule(scan, 'nessus:18405')[0]).toMatchObject({ cve: ['CVE-2005-1794'], tags: ['exploit-available'] })
  })

  it('nessus_many_vuln.xml (Nessus 5.2.1): a host known by name, host times without a zone read as UTC', async () => {
    const scan = await parse('nessus_many_vuln.xml')
    expect(scan.startedAt).toBe(Date.UTC(2013, 5, 25, 10, 32, 42))
    expect(scan.finishedAt).toBe(Date.UTC(2013, 5, 25, 10, 39, 42))
    expect(scan.findings.every((f) => f.target.kind === 'host' && f.target.host === 'preprod.boardvantage.net')).toBe(true)
    expect(scan.assets[0]).toMatchObject({ type: 'ip', value: '12.233.108.201', raw: { os: 'CISCO PIX 7.0', systemType: 'firewall' } })
  })

  it('nessus_with_cwe-.nessus: CWEs written as "CWE-94" and an item without scan information', async () => {
    const scan = await parse('nessus_with_cwe-.nessus')
    expect(scan.tool).toEqual({ name: 'Nessus', version: '' })
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.cwe])).toEqual([['nessus:31649', 'high', ['CWE-94', 'CWE-119', 'CWE-399']]])
  })
})

describe('parseNessusXml on the other shapes (synthetic)', () => {
  it('Nessus 10.8: CVSS 4.0 first, EPSS, CISA KEV, xref CWEs, an item rated by its risk factor, an IPv6 host over UDP', async () => {
    const scan = await parse('synthetic-nessus10.nessus', 200)
    expect(scan.tool.version).toBe('10.8.3')
    expect(scan.targets).toEqual(['192.0.2.20', '2001:db8::15'])
    expect(scan.startedAt).toBe(1733137200000)
    expect(scan.finishedAt).toBe(1733141000000)
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['nessus:156032', 'critical'],
      ['nessus:187315', 'medium'],
      ['nessus:41028', 'high'],
    ])
    const [log4shell, terrapin, snmp] = scan.findings
    expect(log4shell).toMatchObject({
      target: { kind: 'host', host: 'web01.example.test', ip: '192.0.2.20', port: 8443, protocol: 'tcp' },
      cvss: { version: '4.0', score: 10 },
      cve: ['CVE-2021-44228'],
      cwe: ['CWE-502', 'CWE-917'],
      tags: ['exploit-available', 'known-exploited'],
      references: ['https://logging.apache.org/log4j/2.x/security.html', 'https://www.cisa.gov/known-exploited-vulnerabilities-catalog'],
      raw: { epss_score: '0.9447', vpr_score: '10.0', metasploit_name: 'Log4Shell HTTP Header Injection', iava: ['2021-A-0573'] },
    })
    expect(terrapin?.remediation).toBeUndefined()
    expect(snmp?.target).toEqual({ kind: 'host', host: '2001:db8::15', ip: '2001:db8::15', port: 161, protocol: 'udp' })
    expect(scan.assets.map((a) => [a.type, a.value, a.parent])).toEqual([
      ['ip', '192.0.2.20', undefined],
      ['host', 'web01.example.test', '192.0.2.20'],
      ['host', 'WEB01', '192.0.2.20'],
      ['ip', '2001:db8::15', undefined],
    ])
    // The port scanner's "www?" is a guess: the service plugin's name wins.
    expect(scan.assets[0]?.ports).toEqual([
      { port: 443, protocol: 'tcp', service: 'www' },
      { port: 8443, protocol: 'tcp', service: 'www' },
    ])
    expect(scan.assets[0]?.raw).toMatchObject({ mac: '00:00:5e:00:53:01', netbiosName: 'WEB01', credentialedScan: 'false' })
  })

  it("an empty report: no findings, the policy's targets", async () => {
    const scan = await parse('empty.nessus')
    expect(scan).toMatchObject({ findings: [], assets: [], targets: ['192.0.2.0/28'], statistics: { hosts: 0, findings: 0 } })
  })
})

describe('Nessus findings in the network service', () => {
  it('every finding of a file has its own fingerprint, and importing the file again gives the same ones', async () => {
    for (const name of ['nessus_with_cvssv3.nessus', 'nessus_v_unknown.xml', 'synthetic-nessus10.nessus']) {
      const first = await parse(name)
      const again = await parse(name, 333)
      expect(again).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('network', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
      expect(await Promise.all(again.findings.map((f) => parsedFingerprint('network', f)))).toEqual(ids)
    }
  })

  it('is offered on the network page and recognised by content, whatever the file is called', () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('nessus_xml')
    expect(formatsForService('dast').map((p) => p.format)).not.toContain('nessus_xml')
    for (const name of [
      'nessus_many_vuln.xml',
      'nessus_v_unknown.xml',
      'nessus_with_cvssv3.nessus',
      'synthetic-nessus10.nessus',
      'empty.nessus',
    ])
      expect(detectFormat(text(name))?.format, name).toBe('nessus_xml')
    expect(detectFormat('<?xml version="1.0"?><report><NessusClientData_v2/></report>')?.format).not.toBe('nessus_xml')
  })
})

describe('parseNessusXml refuses', () => {
  const refusal = (xml: string) =>
    parseNessusXml(textChunks(xml, 512)).then(
      () => null,
      (e: unknown) => e,
    )

  it('a Nessus v1 report, a policy without results and another XML, in words', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<NessusClientData><Report/></NessusClientData>')).resolves.toMatchObject({
      message: 'Nessus XML, line 2: a Nessus v1 report (<NessusClientData>): export the scan as .nessus (v2)',
    })
    await expect(refusal('<NessusClientData_v2><Policy><policyName>p</policyName></Policy></NessusClientData_v2>')).resolves.toMatchObject({
      message: 'Nessus XML, file: no <Report> element: the file holds a policy but no results',
    })
    await expect(refusal(fixtureText('nmap_xml', 'nmap_0port.xml'))).resolves.toMatchObject({ formatLabel: 'Nessus XML', where: 'line 4' })
  })

  it('entity expansion and external entities before anything is expanded', async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE NessusClientData_v2 [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n<NessusClientData_v2><Report name="&b;"/></NessusClientData_v2>`
    await expect(refusal(laughs)).resolves.toMatchObject({
      message: expect.stringMatching(/^Nessus XML, line \d+: the DOCTYPE declares entities/),
    })
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<NessusClientData_v2><Report name="x"><ReportHost name="&x;"/></Report></NessusClientData_v2>`
    await expect(refusal(xxe)).resolves.toMatchObject({ formatLabel: 'Nessus XML', reason: expect.stringMatching(/declares entities/) })
  })

  it('nesting deeper than the limit and a huge attribute, naming the line', async () => {
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<NessusClientData_v2>\n<Report name="r">\n<ReportHost name="h">\n<ReportItem pluginID="1">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</ReportItem></ReportHost></Report></NessusClientData_v2>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Nessus XML, line 4: elements nested deeper than ${depth}` })
    const huge = `<NessusClientData_v2>\n<Report name="r">\n<ReportHost name="${'h'.repeat(NESSUS_MAX_RUN_CHARS + 1)}"/></Report></NessusClientData_v2>`
    await expect(refusal(huge)).resolves.toMatchObject({
      formatLabel: 'Nessus XML',
      reason: `more than ${NESSUS_MAX_RUN_CHARS} characters without markup`,
    })
  })

  it("reads a policy whose plugin_set lists 300,000 plugins (over the other formats' run limit), keeping none of it", async () => {
    const pluginSet = Array.from({ length: 300_000 }, (_, i) => 10_000 + i).join(';')
    const xml = `<NessusClientData_v2><Policy><Preferences><ServerPreferences><preference><name>plugin_set</name><value>${pluginSet}</value></preference></ServerPreferences></Preferences></Policy><Report name="r"/></NessusClientData_v2>`
    expect(pluginSet.length).toBeGreaterThan(MAX_XML_RUN_CHARS)
    await expect(parseNessusXml(textChunks(xml))).resolves.toMatchObject({ findings: [], targets: [] })
  })

  it('a truncated file, naming the line where it ends', async () => {
    const cut = text('nessus_with_cvssv3.nessus').slice(0, 40_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Nessus XML', where: `line ${cut.split('\n').length}` })
  })

  it('keeps a long plugin output within the evidence bound and the raw fields within the contract', async () => {
    const output = 'x'.repeat(PARSE_LIMITS.maxEvidenceChars * 2)
    const manyXrefs = Array.from({ length: 300 }, (_, i) => `<xref>OSVDB:${i}${'9'.repeat(150)}</xref>`).join('')
    const xml = `<NessusClientData_v2><Report name="r"><ReportHost name="192.0.2.1"><ReportItem port="80" protocol="tcp" severity="2" pluginID="1" pluginName="Long">${manyXrefs}<plugin_output>${output}</plugin_output></ReportItem></ReportHost></Report></NessusClientData_v2>`
    const [finding] = (await parseNessusXml(textChunks(xml))).findings
    expect(finding?.evidence).toHaveLength(PARSE_LIMITS.maxEvidenceChars)
    expect(JSON.stringify(finding?.raw).length).toBeLessThanOrEqual(PARSE_LIMITS.maxFieldChars)
  })
})
