import { describe, expect, it } from 'vitest'
import { canonicalScanTarget, parseIp, type ScopeEntry } from './scan-scope.ts'
import { addressRefusal, specialPurposeRange } from './special-addresses.ts'

const ip = (text: string) => {
  const address = parseIp(text)
  if (!address) throw new Error(`not an address: ${text}`)
  return address
}
const special = (text: string) => specialPurposeRange(ip(text))?.cidr ?? null
const DOMAIN_ONLY: ScopeEntry[] = [{ kind: 'domain', value: 'acme.example' }]

describe('special-purpose addresses', () => {
  it('knows the IPv4 blocks a scan must not reach by a name: private, loopback, link-local and metadata, CGNAT, multicast', () => {
    expect(special('10.0.0.5')).toBe('10.0.0.0/8')
    expect(special('172.31.255.1')).toBe('172.16.0.0/12')
    expect(special('192.168.1.1')).toBe('192.168.0.0/16')
    expect(special('127.0.0.2')).toBe('127.0.0.0/8')
    expect(special('169.254.169.254')).toBe('169.254.0.0/16')
    expect(special('100.100.100.200')).toBe('100.64.0.0/10')
    expect(special('0.0.0.0')).toBe('0.0.0.0/8')
    expect(special('224.0.0.251')).toBe('224.0.0.0/4')
    expect(special('255.255.255.255')).toBe('240.0.0.0/4')
    expect(special('198.18.0.1')).toBe('198.18.0.0/15')
    expect(special('8.8.8.8')).toBeNull()
    expect(special('172.32.0.1')).toBeNull()
  })

  it('knows the IPv6 blocks, and judges the forms that embed IPv4 by the address they reach', () => {
    expect(special('::1')).toBe('::1/128')
    expect(special('::')).toBe('::/128')
    expect(special('fe80::1')).toBe('fe80::/10')
    expect(special('fd00:ec2::254')).toBe('fc00::/7')
    expect(special('ff02::1')).toBe('ff00::/8')
    expect(special('2001:db8::1')).toBe('2001:db8::/32')
    // IPv4-mapped, NAT64 and 6to4 forms of the metadata address and of loopback.
    expect(special('::ffff:169.254.169.254')).toBe('169.254.0.0/16')
    expect(special('::ffff:a9fe:a9fe')).toBe('169.254.0.0/16')
    expect(special('64:ff9b::a9fe:a9fe')).toBe('169.254.0.0/16')
    expect(special('2002:7f00:1::')).toBe('127.0.0.0/8')
    // Deprecated IPv4-compatible addresses are refused whatever they embed.
    expect(special('::8.8.8.8')).toBe('::/96')
    expect(special('::ffff:8.8.8.8')).toBeNull()
    expect(special('2606:4700::1111')).toBeNull()
  })

  it('decimal, octal and hexadecimal spellings of an address are refused as targets or become the address they name', () => {
    expect(canonicalScanTarget('http://2130706433/')).toBe('http://127.0.0.1/')
    expect(canonicalScanTarget('http://0x7f.1/')).toBe('http://127.0.0.1/')
    expect(canonicalScanTarget('http://0251.0376.0251.0376/latest/')).toBe('http://169.254.169.254/latest/')
    expect(canonicalScanTarget('0177.0.0.1')).toBeNull()
    expect(canonicalScanTarget('2130706433')).toBeNull()
  })

  it('allows a special address only where the scope names it by address; loopback-only mode allows nothing else', () => {
    const named: ScopeEntry[] = [
      { kind: 'ip', value: '127.0.0.1' },
      { kind: 'cidr', value: '10.20.0.0/16' },
      { kind: 'url', value: 'http://192.168.7.7:8080/' },
    ]
    expect(addressRefusal(ip('169.254.169.254'), '169.254.169.254', DOMAIN_ONLY, false)).toMatch(
      /169\.254\.169\.254 is a link-local .*\(169\.254\.0\.0\/16\) that the scan scope does not list by address/,
    )
    expect(addressRefusal(ip('10.0.0.5'), '10.0.0.5', DOMAIN_ONLY, false)).toMatch(/private-use/)
    expect(addressRefusal(ip('203.0.113.50'), '203.0.113.50', DOMAIN_ONLY, false)).toMatch(/documentation/)
    expect(addressRefusal(ip('8.8.4.4'), '8.8.4.4', DOMAIN_ONLY, false)).toBeNull()
    expect(addressRefusal(ip('127.0.0.1'), '127.0.0.1', named, false)).toBeNull()
    expect(addressRefusal(ip('::ffff:127.0.0.1'), '::ffff:127.0.0.1', named, false)).toBeNull()
    expect(addressRefusal(ip('127.0.0.2'), '127.0.0.2', named, false)).toMatch(/loopback/)
    expect(addressRefusal(ip('10.20.30.40'), '10.20.30.40', named, false)).toBeNull()
    expect(addressRefusal(ip('10.21.0.1'), '10.21.0.1', named, false)).toMatch(/private-use/)
    expect(addressRefusal(ip('192.168.7.7'), '192.168.7.7', named, false)).toBeNull()
    expect(addressRefusal(ip('127.0.0.1'), '127.0.0.1', named, true)).toBeNull()
    expect(addressRefusal(ip('10.20.30.40'), '10.20.30.40', named, true)).toMatch(/loopback only/)
    expect(addressRefusal(ip('8.8.4.4'), '8.8.4.4', DOMAIN_ONLY, true)).toMatch(/loopback only/)
  })
})
