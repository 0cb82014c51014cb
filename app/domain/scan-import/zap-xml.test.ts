import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from './formats.ts'
import type { ParsedScan } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'
import { htmlToText, parseZapXml, zapXmlParser } from './zap-xml.ts'

const fixture = (path: string) => readFileSync(new URL(`../../../tests/fixtures/scans/${path}`, import.meta.url), 'utf8')
const parse = (path: string, chunkSize?: number) => parseZapXml(textChunks(fixture(path), chunkSize))

function severities(scan: ParsedScan): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const finding of scan.findings) counts[finding.severity] = (counts[finding.severity] ?? 0) + 1
  return counts
}

describe('parseZapXml on public reports', () => {
  it('dvwa_baseline_dojo.xml: one finding per place, HTML paragraphs as text, CWE and WASC kept', async () => {
    const scan = await parse('zap_xml/dvwa_baseline_dojo.xml', 2048)
    expect(scan.tool).toEqual({ name: 'ZAP', version: 'D-2021-03-29' })
    expect(scan.targets).toEqual(['http://172.17.0.2'])
    expect(scan.statistics).toMatchObject({ sites: 1, alerts: 19, instances: 98, duplicateInstances: 26, findings: 98 })
    expect(severities(scan)).toEqual({ medium: 35, low: 47, info: 16 })
    expect(scan.findings[0]).toMatchObject({
      ruleId: '10020',
      title: 'X-Frame-Options Header Not Set',
      severity: 'medium',
      target: { kind: 'url', url: 'http://172.17.0.2/vulnerabilities/brute/', method: 'GET', parameter: 'X-Frame-Options' },
      cwe: ['CWE-16'],
      description: "X-Frame-Options header is not included in the HTTP response to protect against 'ClickJacking' attacks.",
      references: ['https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Frame-Options'],
      raw: { wascid: 15, confidence: 2, riskdesc: 'Medium (Medium)' },
    })
    const csp = scan.findings.find((f) => f.ruleId === '10038')
    expect(csp?.references).toHaveLength(7)
    // The same place twice is one finding, the other evidence kept on it; the listed share of the count is said.
    const timestamps = scan.findings.filter((f) => f.ruleId === '10096')
    expect(timestamps[0]?.raw.moreEvidence).toHaveLength(19)
    expect(scan.notes).toEqual([
      { level: 'warning', where: 'line 208', message: 'Timestamp Disclosure - Unix: the report lists 20 of 67 instances' },
    ])
  })

  it('zap_2.16.1_with_req_resp.xml: request, response, other info and tags', async () => {
    const scan = await parse('zap_xml/zap_2.16.1_with_req_resp.xml')
    expect(scan.tool.version).toBe('2.16.1')
    expect(scan.finishedAt).toBe(Date.UTC(2025, 5, 22, 4, 4, 14))
    expect(scan.findings).toHaveLength(13)
    expect(severities(scan)).toEqual({ info: 13 })
    const [first] = scan.findings
    expect(first?.target).toEqual({
      kind: 'url',
      url: 'https://example-domain.com/cpapi/api/account/verifypasswordless',
      method: 'POST',
      parameter: 'user_identifier',
    })
    expect(first?.request).toMatch(
      /^POST https:\/\/example-domain\.com\/cpapi\/api\/account\/verifypasswordless HTTP\/1\.1\nhost: example-domain\.com\n/,
    )
    expect(first?.request).toMatch(/\n\n\{"user_identifier":"string"/)
    expect(first?.response).toMatch(/^HTTP\/1\.1 400 Bad Request\n/)
    expect(first?.raw.otherinfo).toBe('userParam=user_identifier\nuserValue=string\npasswordParam=passwordless_code')
    expect(scan.findings.find((f) => f.tags?.includes('OWASP_2021_A03'))?.cwe).toEqual(['CWE-565'])
  })

  it('the 2.9 samples: counts per file, and an empty site', async () => {
    const one = await parse('zap_xml/5_zap_sample_one.xml')
    expect([one.findings.length, severities(one)]).toEqual([6, { low: 6 }])
    expect(one.findings[0]?.evidence).toBe('Set-Cookie: opvc')
    expect(one.finishedAt).toBe(Date.UTC(2020, 4, 12, 20, 57, 30))
    const some = await parse('zap_xml/some_2.9.0.xml')
    expect([some.findings.length, severities(some)]).toEqual([14, { low: 12, medium: 1, info: 1 }])
    const empty = await parse('zap_xml/empty_2.9.0.xml')
    expect(empty.findings).toEqual([])
    expect(empty.assets).toEqual([
      { type: 'host', value: 'isaac.nl', ports: [{ port: 443, protocol: 'tcp', service: 'https' }], raw: { site: 'https://isaac.nl' } },
    ])
    const plus = await parse('zap_xml/zap-xml-plus-format.xml')
    expect(plus.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['90028', 'medium', { kind: 'url', url: 'http://localhost:8080/bodgeit/js/qndto7n63d', method: 'PUT' }],
    ])
    expect(plus.finishedAt).toBe(Date.UTC(2022, 8, 30, 8, 40, 35))
  })
})

describe('parseZapXml on edge cases', () => {
  const report = (alerts: string) =>
    `<?xml version="1.0"?>\n<OWASPZAPReport version="2.6.0" generated="Tue, 5 Mar 2024 10:00:00">\n<site name="https://example.test" host="example.test" port="443" ssl="true"><alerts>\n${alerts}\n</alerts></site></OWASPZAPReport>`

  it('reads a pre-2.7 alert without instances, skips false positives and unknown risks with the reason', async () => {
    const scan = await parseZapXml(
      textChunks(
        report(
          [
            '<alertitem><pluginid>40018</pluginid><alert>SQL Injection</alert><riskcode>3</riskcode><confidence>2</confidence><uri>https://example.test/item?id=1</uri><param>id</param><attack>1 OR 1=1</attack><evidence>You have an error in your SQL syntax</evidence><cweid>89</cweid><wascid>19</wascid></alertitem>',
            '<alertitem><pluginid>10021</pluginid><alert>X-Content-Type-Options Header Missing</alert><riskcode>1</riskcode><confidence>0</confidence><instances><instance><uri>https://example.test/</uri><method>GET</method></instance></instances></alertitem>',
            '<alertitem><pluginid>99999</pluginid><alert>Odd</alert><riskcode>7</riskcode></alertitem>',
          ].join('\n'),
        ),
      ),
    )
    expect(scan.findings).toHaveLength(1)
    expect(scan.findings[0]).toMatchObject({
      ruleId: '40018',
      severity: 'high',
      target: { kind: 'url', url: 'https://example.test/item?id=1', method: 'GET', parameter: 'id' },
      cwe: ['CWE-89'],
      evidence: 'You have an error in your SQL syntax',
      raw: { attack: '1 OR 1=1', wascid: 19 },
    })
    expect(scan.notes).toEqual([
      { level: 'skipped', where: 'line 5', message: 'X-Content-Type-Options Header Missing: marked a false positive in ZAP' },
      { level: 'skipped', where: 'line 6', message: 'an alert without a plugin id or a known risk code (Odd)' },
    ])
  })

  it('turns HTML paragraphs into text', () => {
    expect(htmlToText('<p>One &amp; two.</p><p>Three&#39;s<br/>four &#x263A;</p>')).toBe("One & two.\n\nThree's\nfour ☺")
  })

  it('recognises ZAP XML from its content alone, and nothing else', () => {
    for (const name of [
      '5_zap_sample_one',
      'dvwa_baseline_dojo',
      'empty_2.9.0',
      'some_2.9.0',
      'zap-xml-plus-format',
      'zap_2.16.1_with_req_resp',
    ]) {
      expect(zapXmlParser.sniff(fixture(`zap_xml/${name}.xml`)), name).toBe(true)
    }
    for (const name of [
      'lookalike/page.html',
      'lookalike/rss.xml',
      'nessus_xml/synthetic-minimal.xml',
      'nmap_xml/issue4406.xml',
      'openvas_xml/many_vuln.xml',
    ]) {
      expect(zapXmlParser.sniff(fixture(name)), name).toBe(false)
    }
  })

  it('refuses an XXE report and a broken one with the format and the line', async () => {
    await expect(parse('hostile/xxe.xml')).rejects.toThrow(/^OWASP ZAP XML, line 4: the DOCTYPE declares entities/)
    const broken = fixture('zap_xml/5_zap_sample_one.xml').replace('</riskcode>', '</riskcod>')
    await expect(parseZapXml(textChunks(broken))).rejects.toMatchObject({ formatLabel: 'OWASP ZAP XML', where: 'line 6' })
  })
})

describe('format detection across the XML formats', () => {
  const expected: [string, string | null][] = [
    ...['issue12411', 'issue4406', 'nmap_0port', 'nmap_multiple_port', 'nmap_script_vulners', 'synthetic-scripts'].map(
      (n): [string, string] => [`nmap_xml/${n}.xml`, 'nmap_xml'],
    ),
    ...['many_vuln', 'no_vuln', 'one_vuln', 'report_detail_v2', 'synthetic-gvm22-response', 'synthetic-openvas8'].map(
      (n): [string, string] => [`openvas_xml/${n}.xml`, 'openvas_xml'],
    ),
    ...['5_zap_sample_one', 'dvwa_baseline_dojo', 'empty_2.9.0', 'some_2.9.0', 'zap-xml-plus-format', 'zap_2.16.1_with_req_resp'].map(
      (n): [string, string] => [`zap_xml/${n}.xml`, 'zap_xml'],
    ),
    ...['nessus_many_vuln.xml', 'nessus_v_unknown.xml', 'nessus_with_cvssv3.nessus', 'synthetic-nessus10.nessus', 'empty.nessus'].map(
      (n): [string, string] => [`nessus_xml/${n}`, 'nessus_xml'],
    ),
    ['lookalike/rss.xml', null],
    ['lookalike/page.html', null],
    ['lookalike/masscan.xml', 'masscan_xml'],
    ['nessus_xml/synthetic-minimal.xml', 'nessus_xml'],
  ]
  it.each(expected)('%s is %s', (path, format) => {
    expect(detectFormat(fixture(path))?.format ?? null).toBe(format)
  })
})
