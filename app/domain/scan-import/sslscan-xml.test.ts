import { describe, expect, it } from 'vitest'
import { allFixtures, fixtureText, parseFixture, parseText } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { SNIFF_CHARS, ScanParseError } from './parsed-scan.ts'
import { sslscanXmlParser } from './sslscan-xml.ts'

const parse = (name: string) => parseFixture(sslscanXmlParser, 'sslscan_xml', name)
const document = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<document title="SSLScan Results" version="2.1.0" web="http://github.com/rbsec/sslscan">\n${body}\n</document>\n`

describe('sslscanXmlParser', () => {
  it('reads sslscan 2 (a real run against a local server): protocols, ciphers, the certificate as an asset', async () => {
    const scan = await parse('local-openssl-s_server.xml')
    expect(detectFormat(fixtureText('sslscan_xml', 'local-openssl-s_server.xml'))?.format).toBe('sslscan_xml')
    expect(scan.tool).toEqual({ name: 'sslscan', version: '2.0.7' })
    expect(scan.targets).toEqual(['127.0.0.1:48443'])
    expect(scan.statistics).toMatchObject({ targets: 1, ciphersAccepted: 23, protocolsOffered: 2, findings: 1 })
    expect(scan.findings).toEqual([
      {
        ruleId: 'sslscan:certificate-self-signed',
        title: 'The server certificate is self-signed',
        severity: 'medium',
        cwe: ['CWE-295'],
        evidence: 'subject tls.example.test, issuer tls.example.test, valid until Jan  1 17:54:57 2027 GMT',
        target: { kind: 'host', host: '127.0.0.1', port: 48443, protocol: 'tcp' },
        raw: { where: 'line 52' },
      },
    ])
    expect(scan.assets).toEqual([
      {
        type: 'certificate',
        value: 'tls.example.test',
        parent: '127.0.0.1',
        notAfter: Date.UTC(2027, 0, 1, 17, 54, 57),
        issuer: 'tls.example.test',
        raw: { signatureAlgorithm: 'sha256WithRSAEncryption', key: 'RSA 2048' },
      },
    ])
  })

  it('reads sslscan 1.11: Heartbleed with its CVE, an expired certificate under <ssltest>, refused ciphers left out', async () => {
    const scan = await parse('sslscan_many_vuln.xml')
    expect(scan.tool.version).toBe('1.11.13-static')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.cve ?? []])).toEqual([
      ['sslscan:heartbleed', 'high', ['CVE-2014-0160']],
      ['sslscan:certificate-expired', 'high', []],
    ])
    expect(scan.findings[0]?.evidence).toBe('vulnerable with TLSv1.0')
    expect(scan.statistics.ciphersAccepted).toBe(8)
    expect(scan.assets[0]).toMatchObject({ value: '*.service.target.com', notAfter: Date.UTC(2019, 2, 13, 11, 59, 45) })
    expect((await parse('sslscan_no_vuln.xml')).findings.map((f) => f.ruleId)).toEqual(['sslscan:certificate-expired'])
  })

  it('reads old protocols, weak ciphers by strength, renegotiation, compression, fallback and a weak key, one finding per target and check', async () => {
    const scan = await parseText(
      sslscanXmlParser,
      document(`<ssltest host="legacy.example.test" sniname="www.example.test" port="8443">
  <protocol type="ssl" version="3" enabled="1" />
  <protocol type="tls" version="1.0" enabled="1" />
  <protocol type="tls" version="1.2" enabled="1" />
  <fallback supported="0" />
  <renegotiation supported="1" secure="0" />
  <compression supported="1" />
  <cipher status="preferred" sslversion="TLSv1.0" bits="168" cipher="DES-CBC3-SHA" id="0x000A" strength="medium" />
  <cipher status="accepted" sslversion="TLSv1.2" bits="56" cipher="DES-CBC-SHA" id="0x0009" strength="weak" />
  <cipher status="accepted" sslversion="TLSv1.2" bits="128" cipher="RC4-MD5" id="0x0004" strength="weak" />
  <cipher status="accepted" sslversion="TLSv1.2" bits="0" cipher="NULL-SHA" id="0x0002" strength="null" />
  <certificates><certificate type="short">
   <signature-algorithm>sha1WithRSAEncryption</signature-algorithm>
   <pk error="false" type="RSA" bits="1024" />
   <subject><![CDATA[legacy.example.test]]></subject>
   <issuer><![CDATA[Example CA]]></issuer>
   <self-signed>false</self-signed>
   <not-valid-after>Feb 29 00:00:00 2028 GMT</not-valid-after>
   <expired>false</expired>
  </certificate></certificates>
</ssltest>`),
    )
    expect(scan.findings.map((f) => [f.ruleId, f.severity])).toEqual([
      ['sslscan:SSLv3', 'high'],
      ['sslscan:TLS1', 'low'],
      ['sslscan:insecure-renegotiation', 'medium'],
      ['sslscan:compression', 'medium'],
      ['sslscan:fallback-scsv', 'low'],
      ['sslscan:cipher-null', 'high'],
      ['sslscan:cipher-weak', 'medium'],
      ['sslscan:cipher-medium', 'low'],
      ['sslscan:certificate-weak-signature', 'medium'],
      ['sslscan:certificate-weak-key', 'medium'],
    ])
    const weak = scan.findings.find((f) => f.ruleId === 'sslscan:cipher-weak')
    expect(weak?.title).toBe('2 weak ciphers accepted')
    expect(weak?.evidence).toBe('DES-CBC-SHA (TLSv1.2, 56 bits)\nRC4-MD5 (TLSv1.2, 128 bits)')
    expect(weak?.target).toEqual({ kind: 'host', host: 'legacy.example.test', port: 8443, protocol: 'tcp' })
    expect(weak?.raw).toMatchObject({ sniName: 'www.example.test' })
    expect(scan.assets[0]).toMatchObject({ value: 'legacy.example.test', notAfter: Date.UTC(2028, 1, 29), issuer: 'Example CA' })
  })

  it("is recognised by content: every sslscan file, and no other format's file", () => {
    for (const fixture of allFixtures())
      expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format === 'sslscan_xml', `${fixture.format}/${fixture.name}`).toBe(
        fixture.format === 'sslscan_xml',
      )
  })

  it('gives the same findings and fingerprints for the same file read twice', async () => {
    const once = await parse('sslscan_many_vuln.xml')
    const twice = await parse('sslscan_many_vuln.xml')
    expect(twice.findings).toEqual(once.findings)
    const fingerprints = (s: typeof once) => Promise.all(s.findings.map((f) => parsedFingerprint('network', f)))
    expect(await fingerprints(twice)).toEqual(await fingerprints(once))
    expect(new Set(await fingerprints(once)).size).toBe(once.findings.length)
  })

  it('refuses hostile and broken files with the format and line, and skips a target without a host', async () => {
    const laughs = fixtureText('hostile', 'billion-laughs.xml')
    await expect(parseText(sslscanXmlParser, laughs)).rejects.toThrow(/^sslscan XML, line \d+: /)
    const truncated = fixtureText('sslscan_xml', 'sslscan_many_vuln.xml').replace(
      '<heartbleed sslversion="TLSv1.1" vulnerable="0" />',
      '<heartbleed sslversion="TLSv1.1" vulnerable="0">',
    )
    const error = await parseText(sslscanXmlParser, truncated).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^sslscan XML, line \d+: /)
    await expect(parseText(sslscanXmlParser, '<nmaprun></nmaprun>')).rejects.toThrow(
      "sslscan XML, line 1: the root element is <nmaprun>, not sslscan's <document>",
    )
    const hostless = await parseText(sslscanXmlParser, document('<ssltest port="443"><compression supported="1" /></ssltest>'))
    expect(hostless.findings).toEqual([])
    expect(hostless.notes).toEqual([{ level: 'skipped', where: 'line 3', message: 'the <ssltest> has no host' }])
  })
})
