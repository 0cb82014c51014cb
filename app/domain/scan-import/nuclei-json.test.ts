import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { nucleiJsonParser } from './nuclei-json.ts'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'

const parse = (name: string) => parseFixture(nucleiJsonParser, 'nuclei_json', name)

describe('nucleiJsonParser', () => {
  it('reads JSON Lines with the old key names', async () => {
    const scan = await parse('many_findings.json')
    expect(scan.findings).toHaveLength(18)
    expect(severityCounts(scan)).toEqual({ low: 1, medium: 1, info: 16 })
    expect(scan.startedAt).toBe(Date.parse('2021-05-20T11:11:01.667748+03:00'))
    expect(scan.finishedAt).toBe(Date.parse('2021-05-20T11:12:02.301031+03:00'))
    expect([...scan.targets].sort()).toEqual([
      'http://127.0.0.1:8080/WebGoat',
      'http://127.0.0.1:9090/WebWolf',
      'https://nuclei-example.com',
    ])
    const [ssh, nginx] = scan.findings
    expect(ssh).toMatchObject({
      ruleId: 'openssh5.3-detect',
      title: 'OpenSSH 5.3 Detection',
      severity: 'low',
      target: { kind: 'host', host: 'nuclei-example.com', ip: '178.21.15.56', port: 22, protocol: 'tcp' },
      tags: ['network', 'openssh'],
      references: [
        'http://seclists.org/fulldisclosure/2016/Jul/51',
        'https://security-tracker.debian.org/tracker/CVE-2016-6210',
        'http://openwall.com/lists/oss-security/2016/08/01/2',
      ],
    })
    expect(nginx).toMatchObject({
      ruleId: 'nginx-version',
      target: { kind: 'url', url: 'https://nuclei-example.com' },
      evidence: 'nginx/1.14.2',
    })
    expect(scan.statistics).toMatchObject({ results: 18, findings: 18, 'type:http': 16, 'type:network': 2 })
  })

  it('reads the new key names with their classification', async () => {
    const scan = await parse('many_findings_new.json')
    expect(severityCounts(scan)).toEqual({ medium: 1, low: 1 })
    expect(scan.findings[0]).toMatchObject({
      ruleId: 'CVE-2018-15473',
      severity: 'medium',
      cve: ['CVE-2018-15473'],
      cwe: ['CWE-362'],
      cvss: { version: '3.0', vector: 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 5.3 },
      evidence: 'SSH-2.0-OpenSSH_7.4p1 Debian-10+deb9u7',
      references: ['https://nvd.nist.gov/vuln/detail/cve-2018-15473'],
      target: { kind: 'host', host: 'nuclei-example.com', port: 22, ip: '127.0.0.1' },
    })
    expect(scan.findings[0]?.raw).toMatchObject({
      template: 'cves/2018/CVE-2018-15473.yaml',
      info: { author: ['r3dg33k', 'daffainfo', 'forgedhallpass'] },
    })
  })

  it('keeps the matcher, request, response and curl command', async () => {
    const scan = await parse('many_findings_third.json')
    const [headers, favicon] = scan.findings
    expect(headers).toMatchObject({
      ruleId: 'http-missing-security-headers',
      title: 'HTTP Missing Security Headers: x-content-type-options',
      target: { kind: 'url', url: 'https://example.com', parameter: 'x-content-type-options' },
      references: [],
    })
    expect(headers?.request).toMatch(/^GET \/ HTTP\/1.1\r\nHost: example.com\r\n/)
    expect(headers?.response).toMatch(/^HTTP\/1.1 /)
    expect(headers?.raw['curl-command']).toMatch(/^curl /)
    expect(favicon?.target).toEqual({ kind: 'url', url: 'https://example.com/favicon.ico', parameter: 'asp.net-favicon' })
  })

  it('reads a v3 JSON array with DNS and SSL results', async () => {
    const scan = await parse('multiple_v3.json')
    expect(scan.findings).toHaveLength(6)
    expect(severityCounts(scan)).toEqual({ info: 6 })
    expect(scan.findings.map((f) => f.ruleId)).toContain('ssl-issuer')
    expect(scan.findings[0]).toMatchObject({
      ruleId: 'dns-saas-service-detection',
      title: 'DNS SaaS Service Detection: wix',
      target: { kind: 'host', host: 'www.asdf.de', protocol: 'udp' },
      evidence: 'pointing.wixdns.net',
    })
    const issuer = scan.findings.find((f) => f.ruleId === 'ssl-issuer')
    expect(issuer).toMatchObject({
      target: { kind: 'host', host: 'www.asdf.de', port: 443, ip: '8.8.8.8', protocol: 'tcp' },
      evidence: 'Sectigo Limited',
    })
    expect(scan.findings[1]?.cwe).toEqual(['CWE-200'])
  })

  it('keeps two matchers of one template on one URL apart', async () => {
    const scan = await parse('multiple_matches.json')
    expect(scan.findings.map((f) => [f.ruleId, f.target])).toEqual([
      ['tech-detect', { kind: 'url', url: 'https://turquoise-estrellita-69.tiiny.site/', parameter: 'genexus' }],
      ['tech-detect', { kind: 'url', url: 'https://turquoise-estrellita-69.tiiny.site/', parameter: 'recaptcha' }],
    ])
  })

  it('drops CWE ids that are not ones and trailing dots of IPs', async () => {
    expect((await parse('invalid_cwe.json')).findings[0]?.cwe).toEqual([])
    expect((await parse('issue_9201.json')).findings[0]?.raw.ip).toBe('10.10.10.10.')
  })

  it('reads an empty file as no findings', async () => {
    const scan = await parseText(nucleiJsonParser, '')
    expect(scan.findings).toEqual([])
  })

  it('skips results it cannot read, warns on unknown severities, and bounds huge strings', async () => {
    const lines = [
      JSON.stringify({ 'template-id': 'a', info: { severity: 'unknown', name: 'A' }, 'matched-at': 'https://x.example/a' }),
      JSON.stringify(['not', 'a', 'result']),
      JSON.stringify({ info: { severity: 'high' }, 'matched-at': 'https://x.example/' }),
      JSON.stringify({ 'template-id': 'b', info: { severity: 'high', name: 7 } }),
      JSON.stringify({ 'template-id': 'c', info: { severity: 'HIGH', tags: 'x,y' }, host: 'x.example', response: 'R'.repeat(100_000) }),
    ].join('\n')
    const scan = await parseText(nucleiJsonParser, lines)
    expect(scan.notes.map((n) => `${n.level} ${n.where}: ${n.message}`)).toEqual([
      'warning line 1: template a: severity "unknown" read as info',
      'skipped line 2: the result is not an object',
      'skipped line 3: the result has no template-id',
      'skipped line 4: template b: the result says neither where it matched nor the host',
    ])
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['a', 'info'],
      ['c', 'high'],
    ])
    expect(scan.findings[1]?.response?.length).toBe(PARSE_LIMITS.maxEvidenceChars)
    expect(scan.findings[1]?.tags).toEqual(['x', 'y'])
  })

  it('names the line of a broken JSONL line and the path in a truncated array', async () => {
    const jsonl = fixtureText('nuclei_json', 'many_findings.json').split('\n')
    jsonl[4] = jsonl[4]?.slice(0, 40) ?? ''
    await expect(parseText(nucleiJsonParser, jsonl.join('\n'))).rejects.toThrow(/^Nuclei JSONL, line 5: not valid JSON/)
    const array = fixtureText('nuclei_json', 'multiple_v3.json')
    const error = await parseText(nucleiJsonParser, array.slice(0, array.length - 200)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^Nuclei JSON, line \d+ \(after \$\[4\]\): the file ends in the middle/)
    await expect(parseText(nucleiJsonParser, 'templateID,host\n')).rejects.toThrow(
      'Nuclei JSON, line 1: neither a JSON array nor JSON Lines',
    )
  })
})
