import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { assetId, findingFingerprint, fingerprintKey, normalisePath, sha256Hex } from './fingerprints.ts'

describe('findingFingerprint', () => {
  it('is the SHA-256 hex of the service and its key', async () => {
    const print = await findingFingerprint('network', { ip: '203.0.113.10', port: 3389, ruleId: 'CVE-2019-0708' })
    expect(print).toMatch(/^[0-9a-f]{64}$/)
    const expected = createHash('sha256').update(['network', '203.0.113.10', 'tcp', '3389', 'cve-2019-0708'].join('\u001f')).digest('hex')
    expect(print).toBe(expected)
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })

  it('is stable: the same parts give the same fingerprint every time', async () => {
    const parts = { ruleId: '10021', url: 'https://shop.acme.example/cart', parameter: 'id', method: 'POST' }
    const first = await findingFingerprint('dast', parts)
    expect(await findingFingerprint('dast', { ...parts })).toBe(first)
  })

  it('ignores case in hosts, schemes, rules and methods, default ports, trailing slashes and queries', async () => {
    const base = await findingFingerprint('dast', {
      ruleId: 'zap-10038',
      url: 'https://shop.acme.example/cart',
      parameter: 'id',
      method: 'get',
    })
    for (const url of [
      'HTTPS://Shop.ACME.example/cart/',
      'https://shop.acme.example:443/cart',
      'https://shop.acme.example/cart?x=1#top',
      'https://shop.acme.example/cart//',
    ])
      expect(await findingFingerprint('dast', { ruleId: 'ZAP-10038', url, parameter: 'id', method: 'GET' }), url).toBe(base)
    // A non-default port, another path case, another parameter or method is another finding.
    for (const other of [
      { url: 'https://shop.acme.example:8443/cart' },
      { url: 'https://shop.acme.example/Cart' },
      { parameter: 'ID' },
      { method: 'POST' },
      { url: 'http://shop.acme.example/cart' },
    ])
      expect(
        await findingFingerprint('dast', {
          ruleId: 'zap-10038',
          url: 'https://shop.acme.example/cart',
          parameter: 'id',
          method: 'GET',
          ...other,
        }),
      ).not.toBe(base)
  })

  it('defaults the method to GET and the protocol to TCP', async () => {
    expect(await findingFingerprint('dast', { ruleId: 'r', url: 'https://a.example/' })).toBe(
      await findingFingerprint('dast', { ruleId: 'r', url: 'https://a.example', method: 'GET', parameter: '' }),
    )
    expect(await findingFingerprint('network', { ip: '10.0.0.1', port: 22, ruleId: 'x' })).not.toBe(
      await findingFingerprint('network', { ip: '10.0.0.1', port: 22, protocol: 'udp', ruleId: 'x' }),
    )
  })

  it('tells services apart and normalises each one', async () => {
    expect(fingerprintKey('projectmariana', { assetKey: 'Assets.Acme.Example.', exposureType: 'Dangling-CNAME' })).toEqual([
      'assets.acme.example',
      'dangling-cname',
    ])
    expect(fingerprintKey('password_cracking', { domain: 'ACME', account: 'J.Smith', issueType: 'cracked' })).toEqual([
      'acme',
      'j.smith',
      'cracked',
    ])
    expect(
      fingerprintKey('cloud', {
        provider: 'AWS',
        account: '123456789012',
        region: 'EU-West-1',
        checkId: 's3_bucket_public_access',
        resource: 'arn:aws:s3:::Logs',
      }),
    ).toEqual(['aws', '123456789012', 'eu-west-1', 's3_bucket_public_access', 'arn:aws:s3:::Logs'])
    const pm = await findingFingerprint('projectmariana', { assetKey: 'x.example', exposureType: 'rdp' })
    expect(await findingFingerprint('password_cracking', { domain: '', account: 'x.example', issueType: 'rdp' })).not.toBe(pm)
  })

  it('keeps the root path and trims others', () => {
    expect(normalisePath('')).toBe('/')
    expect(normalisePath('/')).toBe('/')
    expect(normalisePath('/a/b/')).toBe('/a/b')
    expect(normalisePath('a')).toBe('/a')
  })
})

describe('assetId', () => {
  it('is stable and ignores case and the trailing dot', async () => {
    const id = await assetId('projectmariana', 'subdomain', 'shop.acme.example')
    expect(id).toMatch(/^[0-9a-f]{64}$/)
    expect(await assetId('projectmariana', 'subdomain', 'Shop.Acme.Example.')).toBe(id)
    expect(await assetId('network', 'subdomain', 'shop.acme.example')).not.toBe(id)
    expect(await assetId('projectmariana', 'domain', 'shop.acme.example')).not.toBe(id)
  })
})
