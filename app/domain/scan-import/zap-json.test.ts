import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'
import { zapJsonParser } from './zap-json.ts'

const parse = (name: string) => parseFixture(zapJsonParser, 'zap_json', name)

describe('zapJsonParser', () => {
  it('reads the traditional report: one finding per instance, HTML stripped', async () => {
    const scan = await parse('basic-traditional-json.json')
    expect(scan.tool).toEqual({ name: 'ZAP', version: 'Dev Build' })
    expect(scan.finishedAt).toBe(Date.UTC(2021, 5, 17, 16, 4, 28))
    expect(scan.targets).toEqual(['http://example.com'])
    expect(scan.findings).toHaveLength(2)
    const [first, second] = scan.findings
    expect(first).toMatchObject({
      ruleId: '1',
      title: 'XSS',
      severity: 'high',
      target: { kind: 'url', url: 'http://example.com/example_3', method: 'GET', parameter: 'Test Param' },
      cwe: ['CWE-123'],
      description: 'XSS Description',
      remediation: 'Test Solution',
      references: ['Test Reference'],
      evidence: 'Test <p>Evidence',
    })
    expect(first?.raw).toMatchObject({
      wascid: '456',
      confidence: '2',
      instance: { attack: 'Test "Attack\\"', otherinfo: "Test 'Other\\" },
    })
    expect(second?.raw).toMatchObject({ instance: { otherinfo: "Test Another 'Other\\" } })
    expect(scan.statistics).toMatchObject({ sites: 1, alerts: 1, instances: 2, findings: 2 })
  })

  it('keeps the requests and responses of the plus report, and its tags', async () => {
    const scan = await parse('basic-traditional-json-plus.json')
    expect(scan.finishedAt).toBe(Date.parse('2025-10-27T14:46:12.641719Z'))
    expect(scan.findings[0]?.request).toMatch(/^GET http:\/\/example.com\/example_3 HTTP\/1.1\r\nhost: example.com\r\n/)
    expect(scan.findings[0]?.request).toMatch(/Test Request Body$/)
    expect(scan.findings[0]?.response).toBe('HTTP/1.0 0\r\n\r\nTest Response Body')
    expect(scan.findings[0]?.tags).toEqual(['tagkey'])
    expect(scan.findings[0]?.raw.instance).toEqual({ id: '-1', nodeName: '', attack: 'Test "Attack\\"', otherinfo: "Test 'Other\\" })
  })

  it('reads a real baseline scan: 19 alerts, 124 instances', async () => {
    const scan = await parse('dvwa-baseline.json')
    expect(scan.findings).toHaveLength(124)
    expect(severityCounts(scan)).toEqual({ medium: 35, low: 47, info: 42 })
    expect(scan.statistics).toMatchObject({ alerts: 19, instances: 124, risk2: 4, risk1: 8, risk0: 7 })
    const frame = scan.findings.find((f) => f.ruleId === '10020')
    expect(frame).toMatchObject({
      title: 'X-Frame-Options Header Not Set',
      severity: 'medium',
      target: { url: 'http://172.17.0.2/vulnerabilities/brute/', method: 'GET', parameter: 'X-Frame-Options' },
      cwe: ['CWE-16'],
    })
    expect(frame?.description).toBe(
      "X-Frame-Options header is not included in the HTTP response to protect against 'ClickJacking' attacks.",
    )
    expect(scan.notes).toEqual([])
  })

  it('skips alerts it cannot read and says why, keeping the rest', async () => {
    const doc = JSON.stringify({
      '@programName': 'ZAP',
      site: [
        {
          '@name': 'https://a.example',
          alerts: [
            'not an alert',
            { pluginid: '1', riskcode: '9', instances: [{ uri: 'https://a.example/' }] },
            { riskcode: '2', instances: [{ uri: 'https://a.example/' }] },
            { pluginid: 2, riskcode: 2, alert: ['wrong'], cweid: -1, instances: [{ method: 'post' }, 'x', { uri: 42 }] },
          ],
        },
      ],
    })
    const scan = await parseText(zapJsonParser, doc)
    expect(scan.notes.map((n) => [n.level, n.where, n.message])).toEqual([
      ['skipped', '$.site[0].alerts[0]', 'the alert is not an object'],
      ['skipped', '$.site[0].alerts[1]', 'unknown riskcode "9"'],
      ['skipped', '$.site[0].alerts[2]', 'the alert has no pluginid'],
    ])
    // Instances without a uri fall back on the site; a wrong-typed title falls back on the rule.
    expect(scan.findings.map((f) => [f.ruleId, f.title, f.severity, f.target])).toEqual([
      ['2', 'ZAP alert 2', 'medium', { kind: 'url', url: 'https://a.example', method: 'POST', parameter: undefined }],
      ['2', 'ZAP alert 2', 'medium', { kind: 'url', url: 'https://a.example', method: undefined, parameter: undefined }],
      ['2', 'ZAP alert 2', 'medium', { kind: 'url', url: '42', method: undefined, parameter: undefined }],
    ])
    expect(scan.findings[0]?.cwe).toEqual([])
  })

  it('bounds huge strings', async () => {
    const huge = 'A'.repeat(200_000)
    const doc = JSON.stringify({
      '@programName': 'ZAP',
      site: [{ '@name': 'x', alerts: [{ pluginid: '1', riskcode: '1', desc: huge, instances: [{ uri: 'https://x/', evidence: huge }] }] }],
    })
    const [finding] = (await parseText(zapJsonParser, doc)).findings
    expect(finding?.description?.length).toBe(PARSE_LIMITS.maxFieldChars)
    expect(finding?.evidence?.length).toBe(PARSE_LIMITS.maxEvidenceChars)
  })

  it('names the format and the line of a truncated report', async () => {
    const text = fixtureText('zap_json', 'dvwa-baseline.json')
    const cut = text.slice(0, Math.floor(text.length / 2))
    const error = await parseText(zapJsonParser, cut).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(
      /^OWASP ZAP JSON, line \d+ \(after \$\.site\[0\]\.alerts\[\d+\]\): the file ends in the middle/,
    )
  })

  it('refuses JSON that is not a ZAP report', async () => {
    await expect(parseText(zapJsonParser, '{"name": "site", "version": "1.0.0"}')).rejects.toThrow('OWASP ZAP JSON, $: no ZAP report')
  })
})
