import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  canonicalScanTarget,
  guessScopeKind,
  parseIPv6,
  parseScanTarget,
  parseScopeEntry,
  ScanScopeSchema,
  scanScopeFromDocument,
  ScopeEntrySchema,
  scopeEntryFor,
  targetInScope,
  type ScopeEntry,
  type ScopeKind,
} from './scan-scope.ts'

const entry = (kind: ScopeKind, value: string): ScopeEntry => {
  const parsed = parseScopeEntry(kind, value)
  if ('error' in parsed) throw new Error(parsed.error)
  return parsed.entry
}

const refusal = (kind: ScopeKind, value: string) => {
  const parsed = parseScopeEntry(kind, value)
  return 'error' in parsed ? parsed.error : null
}

describe('parsing scope entries', () => {
  it('writes every kind in one canonical form', () => {
    expect(entry('domain', ' Acme.Example. ')).toEqual({ kind: 'domain', value: 'acme.example' })
    expect(entry('host', '*.Acme.example')).toEqual({ kind: 'host', value: '*.acme.example' })
    expect(entry('host', 'bücher.example')).toEqual({ kind: 'host', value: 'xn--bcher-kva.example' })
    expect(entry('ip', '2001:0DB8:0000:0000:0000:0000:0000:0001')).toEqual({ kind: 'ip', value: '2001:db8::1' })
    expect(entry('ip', '::ffff:192.0.2.1')).toEqual({ kind: 'ip', value: '192.0.2.1' })
    expect(entry('cidr', '2001:DB8:0:0::/48')).toEqual({ kind: 'cidr', value: '2001:db8::/48' })
    expect(entry('cidr', '10.20.0.0/16')).toEqual({ kind: 'cidr', value: '10.20.0.0/16' })
    expect(entry('url', 'HTTPS://App.Acme.example:443/api/../v2')).toEqual({ kind: 'url', value: 'https://app.acme.example/v2' })
    expect(entry('url', 'http://[2001:db8::1]:8080/')).toEqual({ kind: 'url', value: 'http://[2001:db8::1]:8080/' })
  })

  it('compresses the longest run of zero groups, the first of equal runs', () => {
    expect(entry('ip', '2001:db8:0:0:1:0:0:1').value).toBe('2001:db8::1:0:0:1')
    expect(entry('ip', '2001:0:0:1:0:0:0:1').value).toBe('2001:0:0:1::1')
    expect(entry('ip', '::').value).toBe('::')
    expect(entry('ip', '2001:db8:1:1:1:1:1:1').value).toBe('2001:db8:1:1:1:1:1:1')
  })

  it('refuses what is not an entry of its kind, saying why', () => {
    expect(refusal('domain', '')).toBe('Enter a scope entry.')
    expect(refusal('domain', '*.acme.example')).toBe('A domain already covers its subdomains: leave out the *.')
    expect(refusal('domain', 'example')).toBe('example is not a valid domain and subdomains: for example acme.example.')
    expect(refusal('host', 'www.*.acme.example')).toBe('A wildcard stands only at the start, as in *.acme.example.')
    expect(refusal('host', '*.example')).toMatch(/not a valid host name/)
    expect(refusal('host', '-bad.acme.example')).toMatch(/not a valid host name/)
    expect(refusal('host', 'acme.example:8443')).toMatch(/not a valid host name/)
    expect(refusal('host', '10.0.0.1')).toMatch(/not a valid host name/)
    expect(refusal('host', `${'a'.repeat(64)}.example`)).toMatch(/not a valid host name/)
    expect(refusal('ip', '010.0.0.1')).toMatch(/not a valid ip address/)
    expect(refusal('ip', '256.0.0.1')).toMatch(/not a valid ip address/)
    expect(refusal('ip', '1::2::3')).toMatch(/not a valid ip address/)
    expect(refusal('ip', 'fe80::1%eth0')).toMatch(/not a valid ip address/)
    expect(refusal('cidr', '10.0.0.1/8')).toBe('10.0.0.1/8 has host bits set: did you mean 10.0.0.0/8?')
    expect(refusal('cidr', '0.0.0.0/0')).toBe('An IPv4 range in scope is at most a /8.')
    expect(refusal('cidr', '2000::/3')).toBe('An IPv6 range in scope is at most a /32.')
    expect(refusal('cidr', '10.0.0.0/33')).toBe('An IPv4 range ends in /0 to /32.')
    expect(refusal('url', 'ftp://files.acme.example/')).toBe('A URL in scope starts with http:// or https://.')
    expect(refusal('url', 'https://user:pw@acme.example/')).toBe('A URL in scope carries no user name or password.')
    expect(refusal('url', 'https://acme.example/?a=1')).toBe('A URL in scope is a prefix: leave out the ?query and #fragment.')
    expect(refusal('url', 'acme.example/api')).toMatch(/not a valid url/)
  })

  it('validates a whole scope with the same messages through valibot', () => {
    const ok = v.safeParse(ScanScopeSchema, [
      { kind: 'domain', value: 'ACME.example' },
      { kind: 'cidr', value: '192.0.2.0/24' },
    ])
    expect(ok.success && ok.output).toEqual([
      { kind: 'domain', value: 'acme.example' },
      { kind: 'cidr', value: '192.0.2.0/24' },
    ])
    const bad = v.safeParse(ScanScopeSchema, [{ kind: 'cidr', value: '192.0.2.1/24' }])
    expect(bad.issues?.[0].message).toBe('192.0.2.1/24 has host bits set: did you mean 192.0.2.0/24?')
    const duplicate = v.safeParse(ScanScopeSchema, [
      { kind: 'host', value: 'www.acme.example' },
      { kind: 'host', value: 'WWW.acme.example.' },
    ])
    expect(duplicate.issues?.[0].message).toBe('Each scope entry appears only once.')
    expect(v.safeParse(ScopeEntrySchema, { kind: 'asn', value: 'AS1' }).issues?.[0].message).toBe('Choose the kind of scope entry.')
  })

  it('drops stored entries that no longer parse rather than trusting them', () => {
    expect(scanScopeFromDocument([{ kind: 'domain', value: 'acme.example' }, { kind: 'cidr', value: '0.0.0.0/0' }, 'x'])).toEqual([
      { kind: 'domain', value: 'acme.example' },
    ])
    expect(scanScopeFromDocument(undefined)).toEqual([])
  })

  it('guesses the kind of typed text', () => {
    expect(guessScopeKind('https://acme.example')).toBe('url')
    expect(guessScopeKind('10.0.0.0/8')).toBe('cidr')
    expect(guessScopeKind('2001:db8::1')).toBe('ip')
    expect(guessScopeKind('*.acme.example')).toBe('host')
  })
})

describe('IPv6 text forms', () => {
  it('reads compressed, full and dotted-quad forms as the same number', () => {
    const full = parseIPv6('0000:0000:0000:0000:0000:ffff:c000:0201')
    expect(full).toBe(parseIPv6('::ffff:192.0.2.1'))
    expect(parseIPv6('::1')).toBe(1n)
    expect(parseIPv6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe((1n << 128n) - 1n)
    expect(parseIPv6('1:2:3:4:5:6:7')).toBeNull()
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull()
    expect(parseIPv6('1:2:3:4:5:6:7::8')).toBeNull()
    expect(parseIPv6('12345::')).toBeNull()
  })
})

describe('targetInScope', () => {
  const scope: ScopeEntry[] = [
    entry('domain', 'acme.example'),
    entry('host', '*.acme-cdn.example'),
    entry('host', 'status.partner.example'),
    entry('ip', '198.51.100.7'),
    entry('cidr', '192.0.2.0/24'),
    entry('cidr', '2001:db8:abcd::/48'),
    entry('ip', '2001:db8:ffff::10'),
    entry('url', 'https://portal.other.example/acme'),
  ]
  const inScope = (target: string) => targetInScope(scope, target)

  it('matches a domain, its subdomains at any depth, and nothing that merely ends the same', () => {
    expect(inScope('acme.example')).toBe(true)
    expect(inScope('WWW.Acme.Example.')).toBe(true)
    expect(inScope('a.b.c.acme.example')).toBe(true)
    expect(inScope('evilacme.example')).toBe(false)
    expect(inScope('acme.example.evil.example')).toBe(false)
  })

  it('matches a wildcard below its name but not the name itself, and an exact host only exactly', () => {
    expect(inScope('img.acme-cdn.example')).toBe(true)
    expect(inScope('a.img.acme-cdn.example')).toBe(true)
    expect(inScope('acme-cdn.example')).toBe(false)
    expect(inScope('status.partner.example')).toBe(true)
    expect(inScope('www.status.partner.example')).toBe(false)
    expect(inScope('partner.example')).toBe(false)
  })

  it('matches IPv4 addresses and ranges at their edges', () => {
    expect(inScope('192.0.2.0')).toBe(true)
    expect(inScope('192.0.2.255')).toBe(true)
    expect(inScope('192.0.3.0')).toBe(false)
    expect(inScope('192.0.1.255')).toBe(false)
    expect(inScope('198.51.100.7')).toBe(true)
    expect(inScope('198.51.100.8')).toBe(false)
    expect(inScope('::ffff:192.0.2.9')).toBe(true)
  })

  it('matches IPv6 addresses and ranges exactly, with bigint arithmetic', () => {
    expect(inScope('2001:db8:abcd::1')).toBe(true)
    expect(inScope('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff')).toBe(true)
    expect(inScope('2001:db8:abce::')).toBe(false)
    expect(inScope('2001:db8:abcc:ffff:ffff:ffff:ffff:ffff')).toBe(false)
    expect(inScope('2001:0db8:ffff:0000:0000:0000:0000:0010')).toBe(true)
    expect(inScope('2001:db8:ffff::11')).toBe(false)
  })

  it('matches a range only inside a range or as one listed address', () => {
    expect(inScope('192.0.2.128/25')).toBe(true)
    expect(inScope('192.0.2.0/24')).toBe(true)
    expect(inScope('192.0.2.0/23')).toBe(false)
    expect(inScope('2001:db8:abcd:12::/64')).toBe(true)
    expect(inScope('2001:db8::/32')).toBe(false)
    expect(inScope('198.51.100.7/32')).toBe(true)
    expect(inScope('198.51.100.6/31')).toBe(false)
  })

  it('matches URLs by their host, or by a URL entry with the same origin and a path below it', () => {
    expect(inScope('https://www.acme.example/login?next=/')).toBe(true)
    expect(inScope('http://192.0.2.10:8080/')).toBe(true)
    expect(inScope('http://[2001:db8:abcd::5]/')).toBe(true)
    expect(inScope('https://portal.other.example/acme')).toBe(true)
    expect(inScope('https://portal.other.example:443/acme/orders')).toBe(true)
    expect(inScope('https://portal.other.example/acme/../globex')).toBe(false)
    expect(inScope('https://portal.other.example/acme%2F..%2Fglobex')).toBe(false)
    expect(inScope('https://portal.other.example/acmecorp')).toBe(false)
    expect(inScope('http://portal.other.example/acme')).toBe(false)
    expect(inScope('https://portal.other.example:8443/acme')).toBe(false)
    expect(inScope('https://portal.other.example/')).toBe(false)
    expect(inScope('portal.other.example')).toBe(false)
  })

  it('refuses every target it cannot read', () => {
    for (const target of [
      '',
      '*.acme.example',
      'acme.example:443',
      'ftp://acme.example/',
      'https://user:pw@acme.example/',
      'javascript:alert(1)',
      '192.0.2.1/33',
      '0xc0.0.2.1',
      '192.0.2',
      'fe80::1%eth0',
      'not a host',
    ]) {
      expect(parseScanTarget(target), target).toBeNull()
      expect(inScope(target), target).toBe(false)
    }
  })

  it('has nothing in an empty scope and names the entry that matched', () => {
    expect(targetInScope([], 'acme.example')).toBe(false)
    expect(scopeEntryFor(scope, 'https://api.acme.example')).toEqual({ kind: 'domain', value: 'acme.example' })
  })
})

describe('the stored scope', () => {
  it('reads the entries of its document', () => {
    expect(scanScopeFromDocument({ entries: [{ kind: 'ip', value: '192.0.2.1' }], updatedBy: 'x' })).toEqual([
      { kind: 'ip', value: '192.0.2.1' },
    ])
    expect(scanScopeFromDocument({ updatedBy: 'x' })).toEqual([])
  })
})

describe('canonicalScanTarget', () => {
  it('gives each target the one spelling that is stored and handed to scanners', () => {
    expect(canonicalScanTarget('HTTPS://App.Acme.Example:443/login?next=/x#top')).toBe('https://app.acme.example/login?next=/x')
    expect(canonicalScanTarget('http://[::ffff:127.0.0.1]:8765')).toBe('http://127.0.0.1:8765/')
    expect(canonicalScanTarget(' WWW.acme.example. ')).toBe('www.acme.example')
    expect(canonicalScanTarget('2001:DB8:0:0::1')).toBe('2001:db8::1')
    expect(canonicalScanTarget('192.0.2.0/24')).toBe('192.0.2.0/24')
  })

  it('refuses what URL parsers read differently: a backslash, white space, control characters, userinfo or % in the host', () => {
    // WHATWG reads the first as acme.example with the path /@169.254.169.254/; Python's urlsplit as 169.254.169.254.
    for (const target of [
      'http://acme.example\\@169.254.169.254/',
      'http://acme.example/\\x',
      'http://user@acme.example/',
      'http://acme.example@169.254.169.254/',
      'http://acme%2eexample/',
      'http://acme.example/a b',
      'http://acme.example/\u0000',
      'http://acme.example\t/',
    ])
      expect(canonicalScanTarget(target), target).toBeNull()
    // An @ in the path reads alike everywhere.
    expect(canonicalScanTarget('https://acme.example/@team/')).toBe('https://acme.example/@team/')
  })
})
