import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'
import { sslyzeJsonParser } from './sslyze-json.ts'

const text = (name: string) => fixtureText('sslyze_json', name)
const parse = (name: string, chunk?: number) => parseText(sslyzeJsonParser, text(name), chunk)
const rules = (scan: Awaited<ReturnType<typeof parse>>) => scan.findings.map((f) => [f.ruleId, f.severity])

describe('sslyzeJsonParser on public reports', () => {
  it('one_target_many_vuln_old.json (sslyze 3.0.7): Heartbleed, CCS injection, renegotiation and RC4, the certificate as an asset', async () => {
    const scan = await parse('one_target_many_vuln_old.json', 700)
    expect(scan.tool).toEqual({ name: 'sslyze', version: '3.0.7' })
    expect(scan.targets).toEqual(['www.example.com:443'])
    expect(rules(scan)).toEqual([
      ['sslyze:TLS1_1', 'low'],
      ['sslyze:cipher-weak', 'medium'],
      ['sslyze:heartbleed', 'high'],
      ['sslyze:ccs-injection', 'high'],
      ['sslyze:insecure-renegotiation', 'medium'],
      ['sslyze:client-renegotiation', 'low'],
    ])
    expect(scan.findings[1]).toMatchObject({
      evidence: 'TLS_RSA_WITH_RC4_128_SHA (TLS 1.1, 128 bits)',
      cwe: ['CWE-327'],
      target: { kind: 'host', host: 'www.example.com', ip: '194.168.0.1', port: 443, protocol: 'tcp' },
    })
    expect(scan.findings[2]?.cve).toEqual(['CVE-2014-0160'])
    // sslyze 3 writes no scan date: an old certificate is an asset with its date, not an "expired" finding.
    expect(scan.assets).toEqual([
      {
        type: 'certificate',
        value: 'www.example.com',
        parent: 'www.example.com',
        notAfter: Date.UTC(2020, 11, 21, 19, 13, 34),
        issuer: "C=US,O=Let's Encrypt,CN=Let's Encrypt Authority X3",
        raw: {
          subject: 'CN=www.example.com',
          signatureHash: 'sha256',
          key: 'RSA 2048',
          altNames: ['www.example.com'],
          trustedBy: ['Android', 'Apple', 'Java', 'Mozilla', 'Windows'],
        },
      },
    ])
  })

  it('one_target_many_vuln_new.json (sslyze 5.0.1): old protocols and 3DES ciphers, each named with its protocol', async () => {
    const scan = await parse('one_target_many_vuln_new.json')
    expect(scan.tool.version).toBe('5.0.1')
    expect(scan.startedAt).toBe(Date.UTC(2022, 0, 17, 16, 45, 7, 847))
    expect(scan.finishedAt).toBe(Date.UTC(2022, 0, 17, 16, 45, 39, 806))
    expect(rules(scan)).toEqual([
      ['sslyze:TLS1', 'low'],
      ['sslyze:TLS1_1', 'low'],
      ['sslyze:cipher-medium', 'low'],
    ])
    expect(scan.findings[2]).toMatchObject({ cve: ['CVE-2016-2183'], title: '6 3DES and IDEA ciphers (64-bit blocks, Sweet32) accepted' })
    expect(scan.findings[2]?.evidence?.split('\n')[0]).toBe('TLS_RSA_WITH_3DES_EDE_CBC_SHA (TLS 1.0, 168 bits)')
    expect(scan.statistics).toMatchObject({ servers: 1, ciphersAccepted: 48, findings: 3 })
  })

  it('two_targets_*: one finding per server and check; a clean server gives none', async () => {
    const recent = await parse('two_targets_many_vuln_new.json')
    expect(recent.findings.map((f) => [f.ruleId, f.target.kind === 'host' && f.target.host])).toEqual([
      ['sslyze:cipher-medium', 'example.com'],
      ['sslyze:TLS1', 'example2.com'],
      ['sslyze:TLS1_1', 'example2.com'],
    ])
    expect(recent.assets.map((a) => [a.value, a.parent])).toEqual([
      ['www.example.com', 'example.com'],
      ['sni.cloudflaressl.com', 'example2.com'],
    ])
    const old = await parse('two_targets_two_vuln_old.json')
    expect(old.targets).toEqual(['www.example.com:443', 'info.example.com:443'])
    expect(rules(old)).toEqual([['sslyze:cipher-medium', 'low']])
    expect((await parse('one_target_zero_vuln_new.json')).findings).toEqual([])
  })
})

describe('sslyzeJsonParser on sslyze 6 (synthetic)', () => {
  it('every weakness it reports, the certificate judged at the scan date, an unreachable server and a failed command said', async () => {
    const scan = await parse('synthetic-sslyze6.json', 300)
    expect(rules(scan)).toEqual([
      ['sslyze:SSLv3', 'high'],
      ['sslyze:cipher-null', 'high'],
      ['sslyze:cipher-anonymous', 'high'],
      ['sslyze:cipher-weak', 'medium'],
      ['sslyze:cipher-medium', 'low'],
      ['sslyze:robot', 'high'],
      ['sslyze:compression', 'medium'],
      ['sslyze:fallback-scsv', 'low'],
      ['sslyze:early-data', 'low'],
      ['sslyze:certificate-hostname-mismatch', 'medium'],
      ['sslyze:certificate-untrusted', 'medium'],
      ['sslyze:certificate-expired', 'high'],
      ['sslyze:certificate-weak-signature', 'medium'],
      ['sslyze:certificate-weak-key', 'medium'],
    ])
    const untrusted = scan.findings.find((f) => f.ruleId === 'sslyze:certificate-untrusted')
    expect(untrusted).toMatchObject({
      target: { kind: 'host', host: 'legacy.example.test', ip: '192.0.2.60', port: 8443, protocol: 'tcp' },
      evidence: 'subject CN=legacy.example.test, issuer CN=legacy.example.test, valid until 2024-06-30T12:00:00\nself-signed certificate',
      raw: { trustStores: ['Mozilla', 'Apple'], sniName: 'www.legacy.example.test' },
    })
    expect(scan.findings.find((f) => f.ruleId === 'sslyze:robot')?.cve).toEqual(['CVE-2017-13099'])
    expect(scan.statistics).toMatchObject({ servers: 2, unreachable: 1 })
    expect(scan.notes).toEqual([
      {
        level: 'warning',
        where: '$.server_scan_results[0]',
        message: 'legacy.example.test:8443: http_headers failed (Connection reset by the server)',
      },
      {
        level: 'skipped',
        where: '$.server_scan_results[1]',
        message: 'down.example.test:443: not reached (ERROR: TCP connection to down.example.test:443 timed out)',
      },
    ])
    expect(scan.assets).toMatchObject([
      { type: 'certificate', value: 'legacy.example.test', notAfter: Date.UTC(2024, 5, 30, 12), raw: { key: 'RSA 1024' } },
    ])
  })

  it('empty.json: a run without servers is an empty scan', async () => {
    const scan = await parse('empty.json')
    expect(scan).toMatchObject({ findings: [], assets: [], targets: [], tool: { version: '6.0.0' } })
  })
})

describe('sslyze findings in the network and attack surface services', () => {
  it('the same file imported again gives the same findings and distinct fingerprints', async () => {
    for (const name of ['one_target_many_vuln_old.json', 'synthetic-sslyze6.json', 'two_targets_many_vuln_new.json']) {
      const first = await parse(name)
      expect(await parse(name, 99)).toEqual(first)
      for (const service of ['network', 'projectmariana'] as const) {
        const ids = await Promise.all(first.findings.map((f) => parsedFingerprint(service, f)))
        expect(new Set(ids).size, `${name} in ${service}`).toBe(first.findings.length)
      }
    }
  })

  it("is offered on both pages and recognised by content: every sslyze file, and no other format's file", () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('sslyze_json')
    expect(formatsForService('projectmariana').map((p) => p.format)).toContain('sslyze_json')
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'sslyze_json', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'sslyze_json',
      )
  })
})

describe('sslyzeJsonParser refuses', () => {
  const refusal = (json: string) =>
    parseText(sslyzeJsonParser, json, 128).then(
      () => null,
      (e: unknown) => e,
    )

  it('a truncated file, nesting past the limit and another JSON, with the format and line in words', async () => {
    const cut = text('synthetic-sslyze6.json').slice(0, 2_000)
    const error = await refusal(cut)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^sslyze JSON, line \d+/)
    expect((error as ScanParseError).reason).toBe('the file ends in the middle of a JSON value (is it truncated?)')
    const deep = `{"server_scan_results": [\n${'['.repeat(PARSE_LIMITS.maxDepth)}${']'.repeat(PARSE_LIMITS.maxDepth)}]}`
    await expect(refusal(deep)).resolves.toMatchObject({
      message: `sslyze JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    await expect(refusal('{"results": []}')).resolves.toMatchObject({
      message: 'sslyze JSON, file: no server_scan_results: not an sslyze report',
    })
  })
})
