import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { acunetixDate, acunetixXmlParser } from './acunetix-xml.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'

const text = (name: string) => fixtureText('acunetix_xml', name)
const parse = (name: string, chunk?: number) => parseText(acunetixXmlParser, text(name), chunk)
const refusal = (xml: string) =>
  parseText(acunetixXmlParser, xml, 256).then(
    () => null,
    (e: unknown) => e,
  )

describe('acunetixXmlParser on public exports', () => {
  it('XML_http_example_co_id_.xml (Acunetix 13): URLs from the crawler start URL and the path, CVSS 3 before 2, one finding per alert and place', async () => {
    const scan = await parse('XML_http_example_co_id_.xml', 1_000)
    expect(scan.tool).toEqual({ name: 'Acunetix', version: '' })
    expect(scan.startedAt).toBe(Date.UTC(2020, 3, 28, 5, 36, 46))
    expect(scan.finishedAt).toBe(Date.UTC(2020, 3, 28, 6, 7, 3))
    expect(scan.targets).toEqual(['example.co.id'])
    expect(scan.statistics).toMatchObject({ scans: 1, items: 19, duplicateItems: 11, findings: 8 })
    expect(severityCounts(scan)).toEqual({ medium: 4, low: 3, info: 1 })
    const [csrf] = scan.findings
    expect(csrf).toMatchObject({
      ruleId: 'acunetix:html form without csrf protection',
      title: 'HTML form without CSRF protection',
      severity: 'medium',
      target: { kind: 'url', url: 'http://example.co.id/h/search', method: 'GET' },
      cvss: { version: '3.0', vector: 'CVSS:3.0/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N', score: 4.3 },
      cwe: ['CWE-352'],
      tags: ['csrf'],
      raw: { module: '/Crawler/12-Crawler_Form_NO_CSRF.js', affects: '/h/search', itemId: '1' },
    })
    expect(csrf?.request).toMatch(/^GET \/h\/search HTTP\/1\.1\nReferer: http:\/\/example\.co\.id\//)
    expect(csrf?.evidence).toMatch(/^Form name: <empty>\nForm action: \/h\/search/)
    expect(csrf?.references).toHaveLength(4)
    // Six cookies without HttpOnly at "/" are one finding, each cookie's details kept.
    const httpOnly = scan.findings.find((f) => f.ruleId === 'acunetix:cookie(s) without httponly flag set (verified)')
    expect(httpOnly?.raw.moreDetails).toHaveLength(5)
    expect(scan.assets).toEqual([
      {
        type: 'host',
        value: 'example.co.id',
        ports: [{ port: 80, protocol: 'tcp', service: 'http' }],
        technologies: [],
        raw: { site: 'http://example.co.id', scanName: 'scan_name' },
      },
    ])
  })

  it('many_findings.xml and one_finding.xml: the web server as a technology, a start URL with its scheme', async () => {
    const many = await parse('many_findings.xml')
    expect(many.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['acunetix:slow http denial of service attack', 'medium'],
      ['acunetix:possible virtual host found', 'low'],
      ['acunetix:unencrypted connection (verified)', 'low'],
      ['acunetix:content security policy (csp) not implemented', 'info'],
    ])
    expect(many.assets[0]?.technologies).toEqual(['nginx/1.12.2'])
    const one = await parse('one_finding.xml')
    expect(one.findings[0]).toMatchObject({ target: { kind: 'url', url: 'https://vijaytest.com/some/path' }, cwe: ['CWE-352'] })
    expect(one.findings[0]?.cvss).toBeUndefined()
  })
})

describe('acunetixXmlParser on other shapes (synthetic)', () => {
  it('a parameter, the response, CVEs, CVSS 3.1, a false positive counted, an aborted scan said', async () => {
    const scan = await parse('synthetic-acunetix.xml', 150)
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['acunetix:cross site scripting', 'high'],
      ['acunetix:vulnerable javascript libraries', 'medium'],
    ])
    expect(scan.findings[0]).toMatchObject({
      target: { kind: 'url', url: 'https://shop.example.test:8443/search.php', method: 'GET', parameter: 'q' },
      cvss: { version: '3.1', score: 6.1 },
      evidence: 'URL encoded GET input q was set to 1<ScRiPt>alert(1)</ScRiPt>\n\nThe input is reflected inside a text element.',
      response: 'HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>Results for 1<ScRiPt>alert(1)</ScRiPt></p>',
    })
    expect(scan.findings[1]?.cve).toEqual(['CVE-2012-6708', 'CVE-2020-11022'])
    expect(scan.statistics).toMatchObject({ items: 3, falsePositives: 1, findings: 2 })
    expect(scan.notes).toEqual([
      {
        level: 'warning',
        where: 'line 3',
        message: 'the scan of https://shop.example.test:8443 was aborted: its findings may be incomplete',
      },
    ])
    expect(scan.assets[0]).toMatchObject({
      value: 'shop.example.test',
      ports: [{ port: 8443, protocol: 'tcp', service: 'https' }],
      technologies: ['nginx/1.18.0', 'PHP 7.4', 'jQuery 1.8.1'],
      raw: { os: 'Linux' },
    })
  })

  it('empty.xml: a scan without alerts is an empty scan with its host', async () => {
    const scan = await parse('empty.xml')
    expect(scan).toMatchObject({ findings: [], targets: ['static.example.test'], statistics: { scans: 1, items: 0 } })
    expect(scan.assets.map((a) => a.value)).toEqual(['static.example.test'])
  })

  it('reads its day-first dates', () => {
    expect(acunetixDate('28/04/2020, 05:36:46')).toBe(Date.UTC(2020, 3, 28, 5, 36, 46))
    expect(acunetixDate('')).toBeNull()
  })
})

describe('Acunetix findings in the DAST service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['XML_http_example_co_id_.xml', 'many_findings.xml', 'synthetic-acunetix.xml']) {
      const first = await parse(name)
      expect(await parse(name, 55)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('dast', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the DAST page and recognised by content: every Acunetix file, and no other format's file", () => {
    expect(formatsForService('dast').map((p) => p.format)).toContain('acunetix_xml')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'acunetix_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'acunetix_xml',
      )
  })
})

describe('acunetixXmlParser refuses', () => {
  it('another XML, entity expansion, deep nesting, a huge attribute and a truncated file, with the line', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<issues/>')).resolves.toMatchObject({
      message: "Acunetix XML, line 2: the root element is <issues>, not Acunetix's <ScanGroup>",
    })
    await expect(refusal(fixtureText('hostile', 'xxe.xml'))).resolves.toMatchObject({
      message: expect.stringMatching(/^Acunetix XML, line \d+: the DOCTYPE declares entities/),
    })
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<ScanGroup>\n<Scan>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</Scan></ScanGroup>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Acunetix XML, line 3: elements nested deeper than ${depth}` })
    const huge = `<ScanGroup ExportedOn="${'1'.repeat(1_048_577)}"></ScanGroup>`
    await expect(refusal(huge)).resolves.toMatchObject({
      formatLabel: 'Acunetix XML',
      reason: expect.stringMatching(/characters without markup/),
    })
    const cut = text('XML_http_example_co_id_.xml').slice(0, 20_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Acunetix XML', where: `line ${cut.split('\n').length}` })
  })
})
