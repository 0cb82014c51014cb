import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { ScanParseError } from './parsed-scan.ts'
import { testsslJsonParser } from './testssl-json.ts'

const parse = (name: string) => parseFixture(testsslJsonParser, 'testssl_json', name)

describe('testsslJsonParser', () => {
  it('reads --jsonfile: LOW and above as findings, OK and INFO counted, the certificate as an asset', async () => {
    const scan = await parse('flat-www.example.org.json')
    expect(scan.findings).toHaveLength(9)
    expect(severityCounts(scan)).toEqual({ low: 5, medium: 2, high: 1, critical: 1 })
    expect(scan.statistics).toMatchObject({ checks: 21, ok: 9, info: 3, low: 5, medium: 2, high: 1, critical: 1, findings: 9 })
    expect(scan.targets).toEqual(['www.example.org:443'])
    expect(scan.findings.find((f) => f.ruleId === 'SWEET32')).toEqual({
      ruleId: 'SWEET32',
      title: 'SWEET32: uses 64 bit block ciphers',
      severity: 'low',
      target: { kind: 'host', host: 'www.example.org', ip: '93.184.215.14', port: 443, protocol: 'tcp' },
      cve: ['CVE-2016-2183', 'CVE-2016-6329'],
      cwe: ['CWE-327'],
      evidence: 'uses 64 bit block ciphers',
      raw: { severity: 'LOW', where: '$[16]' },
    })
    expect(scan.assets).toEqual([
      {
        type: 'certificate',
        value: 'www.example.org',
        parent: 'www.example.org',
        notAfter: Date.UTC(2025, 2, 1, 23, 59),
        issuer: 'DigiCert Global G2 TLS RSA SHA256 2020 CA1 (DigiCert Inc from US)',
      },
    ])
  })

  it('reads --jsonfile-pretty with several targets, times and version', async () => {
    const scan = await parse('pretty-two-targets.json')
    expect(scan.tool).toEqual({ name: 'testssl.sh', version: '3.2.0' })
    expect(scan.startedAt).toBe(1738000000000)
    expect(scan.finishedAt).toBe(1738000095000)
    expect(scan.targets).toEqual(['www.example.org:443', 'mail.example.org:8443'])
    expect(severityCounts(scan)).toEqual({ low: 5, medium: 2, high: 1, critical: 3 })
    expect(scan.findings.filter((f) => f.target.kind === 'host' && f.target.port === 8443).map((f) => f.ruleId)).toEqual([
      'cert_notAfter',
      'cert_expirationStatus',
    ])
    expect(scan.findings.at(-1)?.target).toEqual({
      kind: 'host',
      host: 'mail.example.org',
      ip: '93.184.215.20',
      port: 8443,
      protocol: 'tcp',
    })
    expect(scan.assets.map((a) => [a.value, a.notAfter, a.issuer])).toEqual([
      ['www.example.org', Date.UTC(2025, 2, 1, 23, 59), 'DigiCert Global G2 TLS RSA SHA256 2020 CA1 (DigiCert Inc from US)'],
      ['mail.example.org', Date.UTC(2024, 5, 30, 12, 0), "R11 (Let's Encrypt from US)"],
    ])
    expect(scan.notes).toEqual([
      { level: 'warning', where: '$.scanResult[1].vulnerabilities[0]', message: 'testssl.sh: Scan interrupted: connection reset' },
    ])
  })

  it('skips checks it cannot read and names the line of a broken file', async () => {
    const scan = await parseText(
      testsslJsonParser,
      JSON.stringify([{ id: 'x', ip: 'h/1.2.3.4', port: '443', severity: 'HIGH' }, 'no', { severity: 'HIGH' }]),
    )
    expect(scan.findings.map((f) => f.title)).toEqual(['x'])
    expect(scan.notes.map((n) => n.message)).toEqual(['the check is not an object', 'the check has no id'])
    const text = fixtureText('testssl_json', 'flat-www.example.org.json').replace(
      '"port": "443", "severity": "MEDIUM"',
      '"port": "443" "severity": "MEDIUM"',
    )
    const error = await parseText(testsslJsonParser, text).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^testssl.sh JSON, line 10 \(after \$\[7\]\): not valid JSON/)
  })
})
