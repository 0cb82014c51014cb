import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS } from './parsed-scan.ts'
import { wapitiXmlParser } from './wapiti-xml.ts'

const text = (name: string) => fixtureText('wapiti_xml', name)
const parse = (name: string, chunk?: number) => parseText(wapitiXmlParser, text(name), chunk)
const refusal = (xml: string) =>
  parseText(wapitiXmlParser, xml, 256).then(
    () => null,
    (e: unknown) => e,
  )

describe('wapitiXmlParser on Wapiti 3 reports', () => {
  it('juicyshop.xml (Wapiti 3.0.4): each missing header its own finding, an entry repeated at one place once', async () => {
    const scan = await parse('juicyshop.xml', 500)
    expect(scan.tool).toEqual({ name: 'Wapiti', version: '3.0.4' })
    expect(scan.finishedAt).toBe(Date.UTC(2021, 2, 27, 19, 42, 50))
    expect(scan.targets).toEqual(['https://juice-shop.herokuapp.com/#/'])
    expect(scan.statistics).toMatchObject({ vulnerabilities: 15, duplicateEntries: 12, findings: 3 })
    expect(scan.findings.map((f) => [f.ruleId, f.title, f.severity, f.target.kind === 'url' && f.target.parameter])).toEqual([
      ['Content Security Policy Configuration', 'CSP is not set', 'low', 'CSP'],
      ['HTTP Secure Headers', 'X-XSS-Protection is not set', 'low', 'X-XSS-Protection'],
      ['HTTP Secure Headers', 'Strict-Transport-Security is not set', 'low', 'Strict-Transport-Security'],
    ])
    expect(scan.findings[0]).toMatchObject({
      target: { kind: 'url', url: 'https://juice-shop.herokuapp.com/', method: 'GET' },
      request: 'GET / HTTP/1.1\nHost: juice-shop.herokuapp.com',
      raw: { section: 'vulnerabilities', curl: 'curl "https://juice-shop.herokuapp.com/"', level: 1 },
    })
  })

  it('cwe.xml: CWEs from the references; empty.xml: categories without entries are an empty scan', async () => {
    const scan = await parse('cwe.xml')
    expect(scan.findings.map((f) => [f.ruleId, f.cwe])).toEqual([['Cross Site Request Forgery', ['CWE-352']]])
    expect(await parse('empty.xml')).toMatchObject({ findings: [], targets: ['https://static.example.test/'], tool: { version: '3.1.8' } })
  })
})

describe('wapitiXmlParser on Wapiti 2 reports (synthetic)', () => {
  it('Wapiti 2.3: levels 1 high to 3 low, no target written so each entry names its origin by its curl command, anomalies kept', async () => {
    const scan = await parse('synthetic-wapiti-2.3.xml', 120)
    expect(scan.tool.version).toBe('2.3.0')
    expect(scan.targets).toEqual(['http://legacy.example.test'])
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['SQL Injection', 'high', { kind: 'url', url: 'http://legacy.example.test/item.php', method: 'GET', parameter: 'id' }],
      [
        'Cross Site Scripting',
        'medium',
        { kind: 'url', url: 'http://legacy.example.test/guestbook.php', method: 'POST', parameter: 'name' },
      ],
      ['Internal Server Error', 'low', { kind: 'url', url: 'http://legacy.example.test/search.php', method: 'GET', parameter: 'q' }],
    ])
    expect(scan.findings[0]?.cwe).toEqual(['CWE-89'])
    expect(scan.findings[2]?.raw.section).toBe('anomalies')
  })

  it('Wapiti 2.0 (generatedBy, vulnerabilityTypeList): full URLs, the parameter named without its injected value', async () => {
    const scan = await parse('synthetic-wapiti-2.0.xml')
    expect(scan.tool.version).toBe('2.0.0')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['SQL Injection', 'high', { kind: 'url', url: 'http://legacy.example.test/item.php', parameter: 'id' }],
      ['Backup file', 'low', { kind: 'url', url: 'http://legacy.example.test/index.php.bak' }],
    ])
    expect(scan.statistics.duplicateEntries).toBe(1)
  })
})

describe('Wapiti XML findings in the DAST service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['juicyshop.xml', 'synthetic-wapiti-2.3.xml', 'synthetic-wapiti-2.0.xml']) {
      const first = await parse(name)
      expect(await parse(name, 61)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('dast', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the DAST page and recognised by content: every Wapiti XML file, and no other format's file", () => {
    expect(formatsForService('dast').map((p) => p.format)).toContain('wapiti_xml')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'wapiti_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'wapiti_xml',
      )
  })
})

describe('wapitiXmlParser refuses', () => {
  it('another XML, a report of another tool, entity expansion, deep nesting and a truncated file, with the line', async () => {
    await expect(refusal('<?xml version="1.0"?>\n<issues/>')).resolves.toMatchObject({
      message: "Wapiti XML, line 2: the root element is <issues>, not Wapiti's <report>",
    })
    await expect(
      refusal('<report type="security"><report_infos><info name="generatorName">other</info></report_infos></report>'),
    ).resolves.toMatchObject({
      message: 'Wapiti XML, file: no Wapiti report: no generator names Wapiti',
    })
    await expect(refusal(fixtureText('hostile', 'billion-laughs.xml'))).resolves.toMatchObject({
      message: expect.stringMatching(/^Wapiti XML, line \d+: the DOCTYPE declares entities/),
    })
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<report type="security">\n<vulnerabilities>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</vulnerabilities></report>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Wapiti XML, line 3: elements nested deeper than ${depth}` })
    const cut = text('juicyshop.xml').slice(0, 6_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Wapiti XML', where: `line ${cut.split('\n').length}` })
  })
})
