import { describe, expect, it } from 'vitest'
import { fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { fingerprintParts, parsedFingerprint, targetAsset, targetLocation } from './observed.ts'
import { nucleiJsonParser } from './nuclei-json.ts'
import { zapXmlParser } from './zap-xml.ts'

describe('a parsed finding in a service', () => {
  it('is an endpoint in DAST and an exposure of its host and port in attack surface', () => {
    const target = { kind: 'url', url: 'https://app.acme.example/login?next=/', method: 'POST', parameter: 'user' } as const
    expect(fingerprintParts('dast', target, '40012')).toEqual({ ruleId: '40012', url: target.url, parameter: 'user', method: 'POST' })
    expect(fingerprintParts('projectmariana', target, 'exposed-panel')).toEqual({
      assetKey: 'app.acme.example:443',
      exposureType: 'exposed-panel',
    })
    expect(fingerprintParts('network', target, 'CVE-1')).toEqual({ ip: 'app.acme.example', protocol: 'tcp', port: 443, ruleId: 'CVE-1' })
    expect(targetLocation(target)).toEqual({ url: target.url, method: 'POST', parameter: 'user' })
  })

  it('files host findings under ip:port and accounts under DOMAIN\\account', () => {
    expect(targetAsset({ kind: 'host', host: 'db.acme.example', ip: '10.0.0.5', port: 5432, protocol: 'tcp' })).toBe('10.0.0.5:5432')
    expect(targetAsset({ kind: 'account', domain: 'ACME', account: 'bob' })).toBe('ACME\\bob')
    expect(targetLocation({ kind: 'host', host: 'h', ip: '10.0.0.5', port: 22 })).toEqual({ host: '10.0.0.5', port: '22' })
  })
})

describe('fingerprints across scans', () => {
  it('are the same for the same target scanned again on another day, and differ between services', async () => {
    const text = fixtureText('zap_xml', 'some_2.9.0.xml')
    const later = text.replace(/generated="[^"]*"/, 'generated="Mon, 5 Jan 2026 10:00:00"')
    expect(later).not.toBe(text)
    const [first, second] = await Promise.all([parseText(zapXmlParser, text, 1000), parseText(zapXmlParser, later, 333)])
    const ids = async (findings: typeof first.findings, service: 'dast' | 'projectmariana') =>
      Promise.all(findings.map((f) => parsedFingerprint(service, f)))
    expect(await ids(second.findings, 'dast')).toEqual(await ids(first.findings, 'dast'))
    expect(await ids(first.findings, 'projectmariana')).not.toEqual(await ids(first.findings, 'dast'))
  })
})

describe('a rule that makes several checks', () => {
  it('is one exposure per check in attack surface, as in DAST, so eleven technologies on one host stay eleven', async () => {
    const scan = await parseText(nucleiJsonParser, fixtureText('nuclei_json', 'many_findings.json'), 700)
    const techs = scan.findings.filter((f) => f.ruleId === 'tech-detect')
    const checksPerHost = new Set(techs.map((f) => `${targetAsset(f.target)} ${f.check}`))
    expect(techs.length).toBeGreaterThan(2)
    expect(techs.every((f) => f.check)).toBe(true)
    for (const service of ['projectmariana', 'dast'] as const) {
      const ids = new Set(await Promise.all(techs.map((f) => parsedFingerprint(service, f))))
      expect({ service, findings: ids.size }).toEqual({ service, findings: checksPerHost.size })
    }
  })

  it('names the check in the exposure type, and a rule of one check keeps its plain id', () => {
    const target = { kind: 'url', url: 'https://acme.example/', parameter: 'strict-transport-security' } as const
    expect(fingerprintParts('projectmariana', target, 'http-missing-security-headers', 'strict-transport-security')).toEqual({
      assetKey: 'acme.example:443',
      exposureType: 'http-missing-security-headers:strict-transport-security',
    })
    expect(fingerprintParts('projectmariana', { kind: 'url', url: 'https://acme.example/' }, 'exposed-panel')).toEqual({
      assetKey: 'acme.example:443',
      exposureType: 'exposed-panel',
    })
  })
})
