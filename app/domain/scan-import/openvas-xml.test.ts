import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openvasXmlParser, parseOpenvasXml } from './openvas-xml.ts'
import type { ParsedScan } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

const fixture = (path: string) => readFileSync(new URL(`../../../tests/fixtures/scans/${path}`, import.meta.url), 'utf8')
const parse = (path: string, chunkSize?: number) => parseOpenvasXml(textChunks(fixture(path), chunkSize))

function severities(scan: ParsedScan): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const finding of scan.findings) counts[finding.severity] = (counts[finding.severity] ?? 0) + 1
  return counts
}

describe('parseOpenvasXml on public GMP reports', () => {
  it('many_vuln.xml: 44 results on one host, rated from their scores', async () => {
    const scan = await parse('openvas_xml/many_vuln.xml', 4096)
    expect(scan.tool).toEqual({ name: 'OpenVAS', version: '9.0' })
    expect(scan.findings).toHaveLength(44)
    expect(severities(scan)).toEqual({ critical: 8, high: 11, medium: 25 })
    expect(scan.targets).toEqual(['192.168.1.1001'])
    expect(scan.assets.find((a) => a.type === 'ip')?.ports).toHaveLength(14)
    // An empty threat still gives a finding, rated from the score.
    const emptyThreat = scan.findings.filter((f) => f.raw.threat === '')
    expect(emptyThreat.map((f) => f.severity)).toEqual(['medium', 'medium'])
    expect(scan.notes).toEqual([])
  })

  it('one_vuln.xml: the exact fields of a result', async () => {
    const scan = await parse('openvas_xml/one_vuln.xml')
    expect(scan.startedAt).toBe(Date.UTC(2023, 8, 28, 14, 48, 2))
    expect(scan.finishedAt).toBe(Date.UTC(2023, 8, 28, 16, 12, 15))
    expect(scan.findings).toHaveLength(1)
    const [finding] = scan.findings
    expect(finding).toMatchObject({
      ruleId: '1.3.6.1.4.1.25623.1.0.832260',
      title: 'Mozilla Firefox Security Update (mfsa_2023-32_2023-36) - Windows',
      severity: 'critical',
      target: { kind: 'host', host: '10.0.101.2', ip: '10.0.101.2', protocol: 'tcp' },
      references: ['https://www.mozilla.org/en-US/security/advisories/mfsa2023-34/'],
      raw: { qod: 97, qodType: 'registry', solutionType: 'VendorFix', family: 'General' },
    })
    expect(finding?.target).not.toHaveProperty('port')
    expect(finding?.cve).toHaveLength(12)
    expect(finding?.remediation).toBe('Upgrade to version 117 or later, Please see the references for more information.')
    expect(finding?.evidence).toMatch(/^Installed version: 116\.0\.3\nFixed version: {5}117/)
  })

  it('report_detail_v2.xml (GVM 22.6): refs, solution, CVSS 3.1 vector and the host name', async () => {
    const scan = await parse('openvas_xml/report_detail_v2.xml')
    expect(scan.tool.version).toBe('22.6')
    expect(scan.startedAt).toBe(Date.UTC(2025, 7, 22, 13, 1, 38))
    const [finding] = scan.findings
    expect(finding).toMatchObject({
      ruleId: '1.3.6.1.4.1.25623.1.0.836484',
      severity: 'critical',
      target: { kind: 'host', host: 'server99', ip: '10.99.99.99', port: 42, protocol: 'tcp' },
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
      remediation: 'The vendor has released updates. Please see the references for more information.',
    })
    expect(finding?.cve).toContain('CVE-2025-47981')
    expect(scan.assets.map((a) => [a.type, a.value])).toEqual([
      ['ip', '10.99.99.99'],
      ['host', 'server99'],
    ])
  })

  it('no_vuln.xml: a report without results', async () => {
    const scan = await parse('openvas_xml/no_vuln.xml')
    expect(scan.findings).toEqual([])
    expect(scan.statistics).toMatchObject({ results: 0, findings: 0 })
  })
})

describe('parseOpenvasXml on the other shapes (synthetic)', () => {
  it('GVM 22 get_reports_response: Log and Debug results are skipped with the reason', async () => {
    const scan = await parse('openvas_xml/synthetic-gvm22-response.xml', 300)
    expect(scan.tool.version).toBe('22.4')
    expect(scan.startedAt).toBe(Date.UTC(2024, 2, 5, 10, 0, 5))
    expect(scan.finishedAt).toBe(Date.UTC(2024, 2, 5, 10, 25, 10))
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['1.3.6.1.4.1.25623.1.0.103440', 'medium'],
      ['1.3.6.1.4.1.25623.1.0.104857', 'critical'],
    ])
    expect(scan.notes).toEqual([
      {
        level: 'skipped',
        where: 'result 2 (line 49)',
        message: 'OS Detection Consolidation and Reporting: a log result (informational output of a check)',
      },
      { level: 'skipped', where: 'result 3 (line 59)', message: 'Debug: NVT timeout: a debug result' },
    ])
    expect(scan.statistics).toMatchObject({ results: 4, skipped: 2, findings: 2, hosts: 2 })
    expect(scan.findings[0]?.raw).toMatchObject({ advisories: ['cert-bund:CB-K21/0067', 'dfn-cert:DFN-CERT-2016-1787'], qod: 98 })
    expect(scan.assets.find((a) => a.value === '192.0.2.20')?.raw).toMatchObject({ os: 'Debian GNU/Linux 12' })
  })

  it('the old OpenVAS report: cve, bid and xref lists, threat when the score is 0, times without a zone read as UTC', async () => {
    const scan = await parse('openvas_xml/synthetic-openvas8.xml')
    expect(scan.tool.version).toBe('6.0')
    expect(scan.startedAt).toBe(Date.UTC(2024, 2, 5, 10, 0, 0))
    expect(scan.findings.map((f) => [f.title, f.severity, f.cve])).toEqual([
      ['HTTP Debugging Methods (TRACE/TRACK) Enabled', 'medium', ['CVE-2003-1567', 'CVE-2004-2320']],
      ['ICMP Timestamp Detection', 'low', ['CVE-1999-0524']],
    ])
    expect(scan.findings[0]).toMatchObject({
      cvss: { version: '2.0', vector: 'AV:N/AC:M/Au:N/C:P/I:P/A:N', score: 5.8 },
      references: ['http://www.kb.cert.org/vuls/id/288308', 'http://www.kb.cert.org/vuls/id/867593'],
      raw: { bid: ['9506', '9561'], riskFactor: 'Medium' },
    })
    expect(scan.notes.map((n) => n.message)).toEqual(['Traceroute: a log result (informational output of a check)'])
  })
})

describe('openvasXmlParser', () => {
  it('recognises every OpenVAS fixture and none of the look-alikes', () => {
    for (const name of ['many_vuln', 'no_vuln', 'one_vuln', 'report_detail_v2', 'synthetic-gvm22-response', 'synthetic-openvas8']) {
      expect(openvasXmlParser.sniff(fixture(`openvas_xml/${name}.xml`)), name).toBe(true)
    }
    const others = [
      'lookalike/rss.xml',
      'lookalike/page.html',
      'nessus_xml/synthetic-minimal.xml',
      'lookalike/masscan.xml',
      'nmap_xml/issue4406.xml',
      'zap_xml/5_zap_sample_one.xml',
    ]
    for (const name of others) expect(openvasXmlParser.sniff(fixture(name)), name).toBe(false)
    expect(openvasXmlParser.sniff('<?xml version="1.0"?><report><title>Quarterly</title></report>')).toBe(false)
  })

  it('refuses a file that is not a report, and a truncated one, naming the format and the line', async () => {
    await expect(parse('nmap_xml/nmap_0port.xml')).rejects.toMatchObject({ formatLabel: 'OpenVAS XML', where: 'line 4' })
    const truncated = fixture('openvas_xml/report_detail_v2.xml').slice(0, 3000)
    await expect(parseOpenvasXml(textChunks(truncated))).rejects.toMatchObject({
      formatLabel: 'OpenVAS XML',
      where: `line ${truncated.split('\n').length}`,
    })
    await expect(parseOpenvasXml(textChunks('<get_reports_response status="404" status_text="Failed to find report"/>'))).rejects.toThrow(
      'OpenVAS XML, line 1: the response failed: 404 Failed to find report',
    )
  })
})
