import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { arachniJsonParser } from './arachni-json.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'

const text = (name: string) => fixtureText('arachni_json', name)
const parse = (name: string, chunk?: number) => parseText(arachniJsonParser, text(name), chunk)

describe('arachniJsonParser on public reports', () => {
  it('arachni.afr.json (Arachni 1.5.1): the form action, method and affected input as the place, the proof, request and response', async () => {
    const scan = await parse('arachni.afr.json', 1_000)
    expect(scan.tool).toEqual({ name: 'Arachni', version: '1.5.1' })
    expect(scan.startedAt).toBe(Date.UTC(2017, 10, 14, 2, 57, 24))
    expect(scan.finishedAt).toBe(Date.UTC(2017, 10, 14, 2, 57, 29))
    expect(scan.targets).toEqual(['http://testfire.net/'])
    const [xss] = scan.findings
    expect(xss).toMatchObject({
      ruleId: 'arachni:xss',
      title: 'Cross-Site Scripting (XSS)',
      severity: 'high',
      target: { kind: 'url', url: 'http://testfire.net/search.aspx', method: 'GET', parameter: 'txtSearch' },
      cwe: ['CWE-79'],
      tags: ['xss', 'regexp', 'injection', 'script'],
      evidence: '<xss_b6e3767e2a205790c18aed8cdefbd7de/>',
      raw: { check: 'xss', checkName: 'XSS', element: 'form', trusted: true, ip: '65.61.137.117' },
    })
    expect(xss?.references).toHaveLength(3)
    expect(xss?.request).toMatch(/^GET \/search\.aspx\?txtSearch=arachni_text/)
    expect(xss?.response).toMatch(/^HTTP\/1\.1 200 OK\nCache-Control: private\n/)
    expect(xss?.remediation).toMatch(/^To remedy XSS vulnerabilities/)
    expect(scan.assets).toEqual([{ type: 'host', value: 'testfire.net', ports: [{ port: 80, protocol: 'tcp', service: 'http' }] }])
  })

  it('dd.com.afr.json: server, cookie and response checks; one check at two methods is two findings', async () => {
    const scan = await parse('dd.com.afr.json')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'url' && f.target.method])).toEqual([
      ['arachni:hsts', 'medium', 'GET'],
      ['arachni:insecure_cookies', 'info', 'GET'],
      ['arachni:interesting_responses', 'info', 'POST'],
      ['arachni:interesting_responses', 'info', 'TRACE'],
    ])
    expect(scan.findings[0]?.cwe).toEqual(['CWE-200'])
  })

  it('empty.json (Arachni 1.6): no issues is an empty scan with the seed URL as its host', async () => {
    const scan = await parse('empty.json')
    expect(scan).toMatchObject({ findings: [], targets: ['https://static.example.test/'], tool: { version: '1.6.1.3' } })
    expect(scan.startedAt).toBe(Date.UTC(2024, 11, 2, 9))
  })

  it('an untrusted issue is tagged, one found again at the same place keeps its proof, an unknown severity is said', async () => {
    const issue = (proof: string, severity: string) => ({
      name: 'SQL Injection',
      severity,
      cwe: 89,
      trusted: false,
      proof,
      check: { shortname: 'sql_injection', name: 'SQL Injection' },
      vector: {
        type: 'link',
        url: 'https://shop.example.test/item?id=1',
        action: 'https://shop.example.test/item',
        method: 'get',
        affected_input_name: 'id',
      },
    })
    const body = JSON.stringify({
      version: '1.5.1',
      seed: 'x',
      start_datetime: '2024-12-02 10:00:00 +0000',
      issues: [
        issue('syntax error', 'high'),
        issue('ORA-00933', 'high'),
        { ...issue('x', 'severe'), vector: { url: 'https://shop.example.test/' }, check: { shortname: 'other' } },
      ],
    })
    const scan = await parseText(arachniJsonParser, body)
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.tags])).toEqual([
      ['arachni:sql_injection', 'high', ['untrusted']],
      ['arachni:other', 'info', ['untrusted']],
    ])
    expect(scan.findings[0]?.raw.moreProofs).toEqual(['ORA-00933'])
    expect(scan.statistics).toMatchObject({ issues: 3, untrusted: 2, duplicateIssues: 1 })
    expect(scan.notes.map((n) => n.message)).toEqual(['SQL Injection: severity "severe" read as info'])
  })
})

describe('Arachni findings in the DAST service', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['arachni.afr.json', 'dd.com.afr.json']) {
      const first = await parse(name)
      expect(await parse(name, 97)).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('dast', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it("is offered on the DAST page and recognised by content: every Arachni file, and no other format's file", () => {
    expect(formatsForService('dast').map((p) => p.format)).toContain('arachni_json')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'arachni_json', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'arachni_json',
      )
  })
})

describe('arachniJsonParser refuses', () => {
  const refusal = (json: string) =>
    parseText(arachniJsonParser, json, 64).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated file, nesting past the limit and another JSON, with the format and line in words', async () => {
    const cut = text('empty.json').slice(0, 200)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^Arachni JSON, line \d+/)
    const deep = `{"issues": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}${']'.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `Arachni JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"results": []}')).resolves.toMatchObject({
      message: 'Arachni JSON, file: no version or issues: not an Arachni report',
    })
  })
})
