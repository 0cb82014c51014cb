import { describe, expect, it } from 'vitest'
import { fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { niktoJsonParser, niktoXmlParser } from './nikto.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, type ParsedScan } from './parsed-scan.ts'

const xml = (name: string) => fixtureText('nikto_xml', name)
const json = (name: string) => fixtureText('nikto_json', name)
const rows = (scan: ParsedScan) =>
  scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'url' ? `${f.target.method} ${f.target.url}` : ''])
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (e: unknown) => e,
  )

describe('Nikto XML', () => {
  it('nikto-output.xml (Nikto 2.1.5): items at their URL and method, the host with its port, times', async () => {
    const scan = await parseText(niktoXmlParser, xml('nikto-output.xml'), 300)
    expect(scan).toMatchObject({ format: 'nikto_xml', tool: { name: 'Nikto', version: '2.1.5' }, targets: ['http://localhost:8070/'] })
    expect(scan.startedAt).toBe(Date.UTC(2020, 10, 16, 3, 45, 7))
    expect(rows(scan).slice(0, 4)).toEqual([
      ['nikto:999976', 'low', 'GET http://localhost:8070/'],
      ['nikto:999984', 'low', 'GET http://localhost:8070/favicon.ico'],
      // namelink empty and iplink "http://:/favicon.ico": the site joined with the uri.
      ['nikto:500008', 'info', 'GET http://localhost:8070/favicon.ico'],
      ['nikto:999990', 'info', 'OPTIONS http://localhost:8070/'],
    ])
    expect(scan.findings[2]?.raw).toMatchObject({ osvdb: '39272' })
    expect(scan.assets).toEqual([
      {
        type: 'host',
        value: 'localhost',
        ports: [{ port: 8070, protocol: 'tcp', service: 'http' }],
        technologies: [],
        raw: { ip: '127.0.0.1' },
      },
    ])
    expect(scan.statistics).toMatchObject({ hosts: 1, items: 13, mergedItems: 1, findings: 12 })
  })

  it('nikto-report-many-vuln.xml (Nikto 2.1.6, four hosts nested in <niktoscan>) and the doubled CDATA of old reports', async () => {
    const scan = await parseText(niktoXmlParser, xml('nikto-report-many-vuln.xml'))
    expect(scan.targets).toHaveLength(4)
    expect(scan.assets.map((a) => [a.value, a.technologies])).toContainEqual(['192.168.0.20', ['Microsoft-IIS/8.5']])
    expect(scan.findings[0]?.title).toBe('Finding 1.1')
    expect((await parseText(niktoXmlParser, xml('nikto-report-old-format.xml'))).findings.map((f) => f.title)).toEqual(['Finding 1.1'])
  })

  it('Nikto 2.5 <niktoscans>: a CVE in the message and its reference make it medium, the uri prefix dropped', async () => {
    const scan = await parseText(niktoXmlParser, xml('synthetic-nikto-2.5-niktoscans.xml'))
    expect(scan.tool.version).toBe('2.5.0')
    expect(rows(scan)).toEqual([
      ['nikto:600575', 'medium', 'GET https://app.example.org/'],
      ['nikto:013587', 'low', 'GET https://app.example.org/'],
      ['nikto:999990', 'info', 'OPTIONS https://app.example.org/'],
    ])
    expect(scan.findings[0]).toMatchObject({ cve: ['CVE-2021-41773'], references: ['https://nvd.nist.gov/vuln/detail/CVE-2021-41773'] })
    expect(scan.findings[1]?.title).toBe('The anti-clickjacking X-Frame-Options header is not present.')
  })

  it('tdh.xml: two "uncommon header" items at one URL are one finding with both messages', async () => {
    const scan = await parseText(niktoXmlParser, xml('tdh.xml'))
    const headers = scan.findings[0]
    expect(headers?.ruleId).toBe('nikto:999100')
    expect(headers?.evidence?.split('\n')).toHaveLength(2)
    expect(headers?.title).toMatch(/\(and 1 more\)$/)
  })

  it('an empty report', async () => {
    await expect(parseText(niktoXmlParser, xml('empty-nikto-report-zero-vuln.xml'))).resolves.toMatchObject({ findings: [], assets: [] })
  })

  it('refuses entity expansion, another XML and a truncated report with the format and line', async () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE niktoscan [\n<!ENTITY a "aaaa">\n<!ENTITY b "&a;&a;&a;&a;">\n]>\n<niktoscan><scandetails targetip="&b;"/></niktoscan>`
    await expect(refusal(parseText(niktoXmlParser, laughs))).resolves.toMatchObject({
      message: expect.stringMatching(/^Nikto XML, line \d: the DOCTYPE declares entities/),
    })
    await expect(refusal(parseText(niktoXmlParser, fixtureText('zap_xml', '5_zap_sample_one.xml')))).resolves.toMatchObject({
      formatLabel: 'Nikto XML',
      reason: 'the root element is <OWASPZAPReport>, not <niktoscan> or <niktoscans>',
    })
    const cut = xml('nikto-output.xml').slice(0, 1500)
    await expect(refusal(parseText(niktoXmlParser, cut))).resolves.toMatchObject({
      formatLabel: 'Nikto XML',
      where: `line ${cut.split('\n').length}`,
    })
  })
})

describe('Nikto JSON', () => {
  it('juice-shop.json (Nikto 2.1.6, one host object): 151 items, 150 findings, severities', async () => {
    const scan = await parseText(niktoJsonParser, json('juice-shop.json'), 1000)
    expect(scan.findings).toHaveLength(150)
    expect(severityCounts(scan)).toEqual({ info: expect.any(Number), low: expect.any(Number) })
    expect(scan.assets).toEqual([
      {
        type: 'host',
        value: 'juice-shop.herokuapp.com',
        ports: [{ port: 443, protocol: 'tcp', service: 'https' }],
        technologies: ['Cowboy'],
        raw: { ip: '52.51.36.193' },
      },
    ])
    expect(rows(scan)[0]).toEqual(['nikto:999986', 'info', 'GET https://juice-shop.herokuapp.com/'])
  })

  it('issue_9274.json (Nikto 2.5, an array of hosts with references), and 2.5 with sorted keys, zoned times and server_banner', async () => {
    const scan = await parseText(niktoJsonParser, json('issue_9274.json'))
    expect(scan.findings[1]).toMatchObject({
      ruleId: 'nikto:999978',
      title: expect.stringMatching(/^X-Frame-Options header is deprecated/),
      references: ['https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Frame-Options'],
    })
    const sorted = await parseText(niktoJsonParser, json('synthetic-nikto-2.5-canonical.json'))
    expect([sorted.startedAt, sorted.finishedAt]).toEqual([Date.UTC(2024, 2, 5, 9, 0, 1), Date.UTC(2024, 2, 5, 9, 4, 10)])
    expect(sorted.assets[0]?.technologies).toEqual(['Apache/2.4.49 (Unix)'])
  })

  it('the same scan as XML and as JSON gives the same findings at the same URLs', async () => {
    const fromXml = await parseText(niktoXmlParser, xml('synthetic-nikto-2.5-niktoscans.xml'))
    const fromJson = await parseText(niktoJsonParser, json('synthetic-nikto-2.5-canonical.json'))
    const ids = async (scan: ParsedScan) => Promise.all(scan.findings.map((f) => parsedFingerprint('dast', f)))
    expect((await ids(fromXml)).slice(0, 2)).toEqual(await ids(fromJson))
  })

  it('a host whose items come before its name still files them under it; items it cannot read noted', async () => {
    const scan = await parseText(
      niktoJsonParser,
      JSON.stringify({
        vulnerabilities: [{ id: '1', method: 'GET', url: '/a', msg: 'x' }, 'no', { url: '/b' }],
        host: 'h.example.org',
        ip: '192.0.2.9',
        port: '8080',
        banner: '',
      }),
    )
    expect(rows(scan)).toEqual([['nikto:1', 'low', 'GET http://h.example.org:8080/a']])
    expect(scan.notes.map((n) => n.message)).toEqual(['the item is not an object', 'an item without a Nikto test id'])
  })

  it('refuses a truncated file and nesting deeper than the limit with the line', async () => {
    await expect(refusal(parseText(niktoJsonParser, json('tdh.json').slice(0, 400)))).resolves.toMatchObject({
      formatLabel: 'Nikto JSON',
      reason: 'the file ends in the middle of a JSON value (is it truncated?)',
    })
    const deep = `{"host": "h", "ip": "192.0.2.1", "port": "80", "banner": "", "vulnerabilities": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(parseText(niktoJsonParser, deep))).resolves.toMatchObject({
      message: `Nikto JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
  })
})

describe('Nikto in the DAST service', () => {
  it('each finding has its own fingerprint, and the same file again gives the same result', async () => {
    for (const [parser, text] of [
      [niktoXmlParser, xml('nikto-output.xml')],
      [niktoXmlParser, xml('tdh.xml')],
      [niktoJsonParser, json('juice-shop.json')],
      [niktoJsonParser, json('tdh.json')],
    ] as const) {
      const first = await parseText(parser, text)
      expect(await parseText(parser, text, 333)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('dast', f)))
      expect(new Set(ids).size).toBe(first.findings.length)
    }
  })

  it('is offered on the DAST page and recognised by content', () => {
    expect(formatsForService('dast').map((p) => p.format)).toEqual(expect.arrayContaining(['nikto_xml', 'nikto_json']))
    for (const name of [
      'nikto-output.xml',
      'nikto-report-many-vuln.xml',
      'nikto-report-old-format.xml',
      'tdh.xml',
      'synthetic-nikto-2.5-niktoscans.xml',
      'empty-nikto-report-zero-vuln.xml',
    ])
      expect(detectFormat(xml(name))?.format, name).toBe('nikto_xml')
    for (const name of ['issue_9274.json', 'juice-shop.json', 'tdh.json', 'synthetic-nikto-2.5-canonical.json'])
      expect(detectFormat(json(name))?.format, name).toBe('nikto_json')
  })
})
