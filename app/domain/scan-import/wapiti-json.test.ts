import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat } from './formats.ts'
import { ScanParseError } from './parsed-scan.ts'
import { wapitiJsonParser } from './wapiti-json.ts'

const parse = (name: string) => parseFixture(wapitiJsonParser, 'wapiti_json', name)

describe('wapitiJsonParser', () => {
  it('reads a real run against the vulnerable app: one finding per entry, URLs from the target', async () => {
    const scan = await parse('vulnerable-app.json')
    expect(scan.tool).toEqual({ name: 'Wapiti', version: '3.0.4' })
    expect(scan.targets).toEqual(['http://127.0.0.1:8799/'])
    expect(scan.finishedAt).toBe(Date.parse('Tue, 24 Nov 2026 21:36:57 +0000'))
    expect(scan.findings).toHaveLength(9)
    expect(severityCounts(scan)).toEqual({ critical: 1, high: 1, medium: 1, low: 6 })
    expect(scan.statistics).toMatchObject({ vulnerabilities: 8, anomalies: 1, additionals: 0, findings: 9 })
    const xss = scan.findings.find((f) => f.ruleId === 'Cross Site Scripting')
    expect(xss).toMatchObject({
      title: 'Cross Site Scripting',
      severity: 'medium',
      target: { kind: 'url', url: 'http://127.0.0.1:8799/search', method: 'GET', parameter: 'q' },
      cwe: ['CWE-79'],
    })
    expect(xss?.request).toMatch(/^GET \/search\?q=%3CScRiPt%3E/)
    expect(xss?.description).toMatch(/Cross-site scripting/i)
    const sql = scan.findings.find((f) => f.ruleId === 'SQL Injection')
    expect(sql).toMatchObject({ severity: 'critical', target: { url: 'http://127.0.0.1:8799/product', parameter: 'id' }, cwe: ['CWE-89'] })
  })

  it('makes each missing header its own finding, named after the header', async () => {
    const scan = await parse('vulnerable-app.json')
    const headers = scan.findings.filter((f) => f.ruleId === 'HTTP Secure Headers')
    expect(headers.map((f) => f.target.kind === 'url' && f.target.parameter).sort()).toEqual([
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'X-Frame-Options',
      'X-XSS-Protection',
    ])
    expect(headers[0]?.title).toMatch(/ is not set$/)
  })

  it('is detected by content, and other JSON is not taken for it', () => {
    expect(detectFormat(fixtureText('wapiti_json', 'vulnerable-app.json'))?.format).toBe('wapiti_json')
    expect(wapitiJsonParser.sniff('{"site":[{"@name":"http://x"}]}')).toBe(false)
  })

  it('refuses a document that is not a Wapiti report, naming where', async () => {
    const error = await parseText(wapitiJsonParser, '{"classifications": {}, "infos": {"version": "Other 1.0"}}').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).where).toBe('$.infos')
  })

  it('skips an entry with an unknown level and says so', async () => {
    const text = JSON.stringify({
      classifications: {},
      vulnerabilities: { X: [{ method: 'GET', path: '/a', info: 'x', level: 9, parameter: '' }] },
      infos: { target: 'http://127.0.0.1:1/', version: 'Wapiti 3.0.4', date: 'Tue, 24 Nov 2026 21:36:57 +0000' },
    })
    const scan = await parseText(wapitiJsonParser, text)
    expect(scan.findings).toHaveLength(0)
    expect(scan.notes[0]).toMatchObject({ level: 'skipped', message: 'unknown level 9' })
  })
})
