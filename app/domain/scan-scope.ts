// A company's scan scope: the names, addresses and URLs its analysts and agents may test. Stored in
// companies/{slug}/scan_scope/current as `entries`, typed entries each in one canonical form,
// apart from the company document so that only those who manage scans and keys read it. Written
// by the functions only.
// Matching is purely syntactic: nothing here resolves DNS, so a name in scope says nothing about the
// addresses it resolves to, and an address in scope says nothing about the names pointing at it.
//
// Entry kinds:
// - domain  `acme.example`: the name itself and every name under it, at any depth.
// - host    `www.acme.example`: exactly that name; `*.acme.example`: every name under it (any depth),
//           not the name itself.
// - ip      `192.0.2.10`, `2001:db8::1`: one address.
// - cidr    `192.0.2.0/24`, `2001:db8::/48`: a range; host bits must be zero.
// - url     `https://app.acme.example/api/`: that origin (scheme, host, port) and the paths under
//           that path, split at `/` (`/api` covers `/api` and `/api/x`, not `/apix`).
import * as v from 'valibot'
import { companyPath } from './companies.ts'

export const SCAN_SCOPE_COLLECTION = 'scan_scope'

/** The one document that holds a company's scope. */
export const scanScopePath = (company: string) => `${companyPath(company)}/${SCAN_SCOPE_COLLECTION}/current`

export const SCOPE_KINDS = ['domain', 'host', 'ip', 'cidr', 'url'] as const
export type ScopeKind = (typeof SCOPE_KINDS)[number]

export const SCOPE_KIND_LABELS: Record<ScopeKind, string> = {
  domain: 'Domain and subdomains',
  host: 'Host name',
  ip: 'IP address',
  cidr: 'IP range',
  url: 'URL',
}

export type ScopeEntry = { kind: ScopeKind; value: string }

export const SCOPE_LIMITS = {
  entries: 500,
  /** Broader ranges than these are refused: a scope must name what the client owns. */
  minPrefixV4: 8,
  minPrefixV6: 32,
} as const

// ---------------------------------------------------------------------------------------------
// Addresses (bigint, so IPv6 is exact)

export type IpAddress = { version: 4 | 6; value: bigint }
export type IpRange = { version: 4 | 6; first: bigint; prefix: number }

const BITS = { 4: 32, 6: 128 } as const

/** A strict dotted quad (no leading zeros, no shorthand), or null. */
export function parseIPv4(text: string): bigint | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!match) return null
  let value = 0n
  for (const part of match.slice(1)) {
    if (part.length > 1 && part.startsWith('0')) return null
    const octet = Number(part)
    if (octet > 255) return null
    value = (value << 8n) | BigInt(octet)
  }
  return value
}

/** An IPv6 address in any RFC 4291 text form (with `::` and a trailing dotted quad), no zone; or null. */
export function parseIPv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null
  let head = text
  let tail: bigint | null = null
  const lastColon = text.lastIndexOf(':')
  if (text.includes('.', lastColon)) {
    tail = parseIPv4(text.slice(lastColon + 1))
    if (tail === null) return null
    head = text.slice(0, lastColon + 1) + '0:0'
  }
  const halves = head.split('::')
  if (halves.length > 2) return null
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'))
  const left = groupsOf(halves[0]!)
  const right = halves.length === 2 ? groupsOf(halves[1]!) : []
  const missing = 8 - left.length - right.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right]
  let value = 0n
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null
    value = (value << 16n) | BigInt(parseInt(group, 16))
  }
  if (tail !== null) value = (value & ~0xffffffffn) | tail
  return value
}

export function parseIp(text: string): IpAddress | null {
  const v4 = parseIPv4(text)
  if (v4 !== null) return { version: 4, value: v4 }
  const v6 = parseIPv6(text)
  if (v6 !== null) return { version: 6, value: v6 }
  return null
}

function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.')
}

/** RFC 5952: lowercase, no leading zeros, the longest run of two or more zero groups as `::`. */
function formatIPv6(value: bigint): string {
  if (value >> 32n === 0xffffn) return `::ffff:${formatIPv4(value & 0xffffffffn)}`
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn))
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i]
    i = j
  }
  const hex = groups.map((group) => group.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`
}

export function formatIp(address: IpAddress): string {
  return address.version === 4 ? formatIPv4(address.value) : formatIPv6(address.value)
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 host it names. */
function unmap(address: IpAddress): IpAddress {
  if (address.version === 6 && address.value >> 32n === 0xffffn) return { version: 4, value: address.value & 0xffffffffn }
  return address
}

export function rangeContains(range: IpRange, address: IpAddress): boolean {
  if (range.version !== address.version) return false
  const shift = BigInt(BITS[range.version] - range.prefix)
  return address.value >> shift === range.first >> shift
}

function rangeContainsRange(outer: IpRange, inner: IpRange): boolean {
  return (
    outer.version === inner.version && outer.prefix <= inner.prefix && rangeContains(outer, { version: inner.version, value: inner.first })
  )
}

type RangeParse = { range: IpRange } | { error: string }

function parseCidr(text: string): RangeParse | null {
  const slash = text.indexOf('/')
  if (slash < 0) return null
  const address = parseIp(text.slice(0, slash))
  const prefixText = text.slice(slash + 1)
  if (!address || !/^\d{1,3}$/.test(prefixText) || (prefixText.length > 1 && prefixText.startsWith('0'))) return null
  const prefix = Number(prefixText)
  const bits = BITS[address.version]
  if (prefix > bits) return { error: `An IPv${address.version} range ends in /0 to /${bits}.` }
  const shift = BigInt(bits - prefix)
  const first = (address.value >> shift) << shift
  if (first !== address.value) {
    const suggestion = `${formatIp({ version: address.version, value: first })}/${prefix}`
    return { error: `${text} has host bits set: did you mean ${suggestion}?` }
  }
  return { range: { version: address.version, first, prefix } }
}

function formatRange(range: IpRange): string {
  return `${formatIp({ version: range.version, value: range.first })}/${range.prefix}`
}

// ---------------------------------------------------------------------------------------------
// Names

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const NAME_CHARACTERS = /^[^\s/?#@:\\%[\]*]+$/

/**
 * A host name in its ASCII form (lowercase, IDN as punycode, no trailing dot), or null. At least
 * two labels, and the last not numeric, so that no address shorthand (`10.1`, `0x7f.1`) reads as a name.
 */
export function normaliseHostName(text: string): string | null {
  if (!NAME_CHARACTERS.test(text)) return null
  let ascii: string
  try {
    ascii = new URL(`http://${text}/`).hostname
  } catch {
    return null
  }
  ascii = ascii.replace(/\.$/, '')
  if (ascii.length > 253) return null
  const labels = ascii.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null
  if (/^(\d+|0x[0-9a-f]*)$/.test(labels.at(-1)!)) return null
  return ascii
}

/** `name` is `domain` or a name under it. */
function nameWithin(name: string, domain: string): boolean {
  return name === domain || name.endsWith(`.${domain}`)
}

// ---------------------------------------------------------------------------------------------
// URLs

const URL_SCHEMES = new Set(['http:', 'https:'])

type ParsedUrl = { url: URL; host: { name: string } | { ip: IpAddress } }

function parseHttpUrl(text: string): ParsedUrl | { error: string } | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return null
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { error: `${text} is not a valid URL.` }
  }
  if (!URL_SCHEMES.has(url.protocol)) return { error: 'A URL in scope starts with http:// or https://.' }
  if (url.username || url.password) return { error: 'A URL in scope carries no user name or password.' }
  const bracketed = url.hostname.startsWith('[')
  const ip = parseIp(bracketed ? url.hostname.slice(1, -1) : url.hostname)
  if (ip) return { url, host: { ip: unmap(ip) } }
  const name = normaliseHostName(url.hostname)
  if (!name) return { error: `${url.hostname} is not a valid host name.` }
  return { url, host: { name } }
}

function hostText(host: ParsedUrl['host']): string {
  if ('name' in host) return host.name
  return host.ip.version === 6 ? `[${formatIp(host.ip)}]` : formatIp(host.ip)
}

function sameHost(a: ParsedUrl['host'], b: ParsedUrl['host']): boolean {
  return hostText(a) === hostText(b)
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80')
}

/** The target's path is the entry's path or lies under it, split at `/`. */
function pathWithin(path: string, prefix: string): boolean {
  if (prefix === '/' || path === prefix) return true
  return path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)
}

// ---------------------------------------------------------------------------------------------
// Entries: parsing with the messages people see, on the client and on the server alike

type EntryParse = { entry: ScopeEntry } | { error: string }

const EXAMPLES: Record<ScopeKind, string> = {
  domain: 'acme.example',
  host: 'www.acme.example or *.acme.example',
  ip: '192.0.2.10 or 2001:db8::1',
  cidr: '192.0.2.0/24 or 2001:db8::/48',
  url: 'https://app.acme.example/api/',
}

function parseEntryOfKind(kind: ScopeKind, raw: string): EntryParse {
  const text = raw.trim()
  if (text === '') return { error: 'Enter a scope entry.' }
  const invalid = { error: `${text} is not a valid ${SCOPE_KIND_LABELS[kind].toLowerCase()}: for example ${EXAMPLES[kind]}.` }
  switch (kind) {
    case 'domain': {
      if (text.startsWith('*.')) return { error: 'A domain already covers its subdomains: leave out the *.' }
      const name = normaliseHostName(text)
      return name ? { entry: { kind, value: name } } : invalid
    }
    case 'host': {
      const wildcard = text.startsWith('*.')
      const rest = wildcard ? text.slice(2) : text
      if (rest.includes('*')) return { error: 'A wildcard stands only at the start, as in *.acme.example.' }
      const name = normaliseHostName(rest)
      return name ? { entry: { kind, value: wildcard ? `*.${name}` : name } } : invalid
    }
    case 'ip': {
      const address = parseIp(text)
      return address ? { entry: { kind, value: formatIp(unmap(address)) } } : invalid
    }
    case 'cidr': {
      const parsed = parseCidr(text)
      if (!parsed) return invalid
      if ('error' in parsed) return parsed
      const { range } = parsed
      const min = range.version === 4 ? SCOPE_LIMITS.minPrefixV4 : SCOPE_LIMITS.minPrefixV6
      if (range.prefix < min) return { error: `An IPv${range.version} range in scope is at most a /${min}.` }
      return { entry: { kind, value: formatRange(range) } }
    }
    case 'url': {
      const parsed = parseHttpUrl(text)
      if (!parsed) return invalid
      if ('error' in parsed) return parsed
      const { url } = parsed
      if (url.search || url.hash || text.includes('?') || text.includes('#')) {
        return { error: 'A URL in scope is a prefix: leave out the ?query and #fragment.' }
      }
      const port = url.port ? `:${url.port}` : ''
      return { entry: { kind, value: `${url.protocol}//${hostText(parsed.host)}${port}${url.pathname}` } }
    }
  }
}

/** The kind an entry typed as plain text most likely is: a bare or wildcard name is a host. */
export function guessScopeKind(raw: string): ScopeKind {
  const text = raw.trim()
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return 'url'
  if (text.includes('/')) return 'cidr'
  if (parseIp(text)) return 'ip'
  return 'host'
}

/** One entry, validated and in its canonical form, or the reason it is refused. */
export function parseScopeEntry(kind: ScopeKind, raw: string): EntryParse {
  return parseEntryOfKind(kind, raw)
}

export const ScopeEntrySchema = v.pipe(
  v.object({ kind: v.picklist(SCOPE_KINDS, 'Choose the kind of scope entry.'), value: v.string('Enter a scope entry.') }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseEntryOfKind(dataset.value.kind, dataset.value.value)
    if ('error' in parsed) {
      addIssue({ message: parsed.error })
      return NEVER
    }
    return parsed.entry
  }),
)

export const ScanScopeSchema = v.pipe(
  v.array(ScopeEntrySchema, 'The scan scope is a list of entries.'),
  v.maxLength(SCOPE_LIMITS.entries, `A scan scope holds at most ${SCOPE_LIMITS.entries} entries.`),
  v.check((entries) => new Set(entries.map(scopeEntryKey)).size === entries.length, 'Each scope entry appears only once.'),
)

export const scopeEntryKey = (entry: ScopeEntry) => `${entry.kind}:${entry.value}`

/** The entries of a stored scope (its document's `entries`); malformed ones are dropped, so they match nothing. */
export function scanScopeFromDocument(data: unknown): ScopeEntry[] {
  const entries = typeof data === 'object' && data !== null && !Array.isArray(data) && 'entries' in data ? data.entries : data
  if (!Array.isArray(entries)) return []
  return entries.flatMap((item) => {
    const parsed = v.safeParse(ScopeEntrySchema, item)
    return parsed.success ? [parsed.output] : []
  })
}

// ---------------------------------------------------------------------------------------------
// Targets

export type ScanTarget =
  | { kind: 'host'; name: string }
  | { kind: 'ip'; address: IpAddress }
  | { kind: 'range'; range: IpRange }
  | { kind: 'url'; url: URL; host: { name: string } | { ip: IpAddress } }

/**
 * What an agent or a CI pipeline asks to test: a host name, an IP address, an IP range (CIDR) or an
 * http(s) URL. Anything else (wildcards, ports without a scheme, other schemes, credentials in a
 * URL, address shorthand) is null: it is never in scope.
 */
export function parseScanTarget(raw: string): ScanTarget | null {
  const text = raw.trim()
  if (text === '' || text.length > 2048) return null
  if (text.includes('://')) {
    const parsed = parseHttpUrl(text)
    return parsed && !('error' in parsed) ? { kind: 'url', url: parsed.url, host: parsed.host } : null
  }
  if (text.includes('/')) {
    const parsed = parseCidr(text)
    return parsed && 'range' in parsed ? { kind: 'range', range: parsed.range } : null
  }
  const address = parseIp(text)
  if (address) return { kind: 'ip', address: unmap(address) }
  const name = normaliseHostName(text)
  return name ? { kind: 'host', name } : null
}

/**
 * Text every URL parser reads alike. Scanners parse targets with their own parsers (wapiti's reads
 * `http://acme.example\@169.254.169.254/` as the metadata address, WHATWG's as acme.example), so
 * a target is refused outright when it holds a backslash, white space or a control character
 * anywhere, or an `@` or `%` in its authority; what passes is handed on in its canonical form.
 */
function unambiguous(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\\\s\u0000-\u001f\u007f]/.test(text)) return false
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1]
  return authority === undefined || !/[@%]/.test(authority)
}

/**
 * The one spelling of a target that is stored and handed to scanners: a URL as scheme, canonical
 * host, port and path (with its query, without a fragment), a name in its ASCII form, an address
 * or range in its canonical form; null for a target parseScanTarget refuses or that is ambiguous.
 * Matching (targetInScope) stays lenient, as scanners' finding URLs carry payloads.
 */
export function canonicalScanTarget(raw: string): string | null {
  const target = unambiguous(raw.trim()) ? parseScanTarget(raw) : null
  if (!target) return null
  switch (target.kind) {
    case 'host':
      return target.name
    case 'ip':
      return formatIp(target.address)
    case 'range':
      return formatRange(target.range)
    case 'url':
      return `${target.url.protocol}//${hostText(target.host)}${target.url.port ? `:${target.url.port}` : ''}${target.url.pathname}${target.url.search}`
  }
}

function nameInEntry(name: string, entry: ScopeEntry): boolean {
  if (entry.kind === 'domain') return nameWithin(name, entry.value)
  if (entry.kind !== 'host') return false
  if (entry.value.startsWith('*.')) return name.endsWith(entry.value.slice(1))
  return name === entry.value
}

function addressInEntry(address: IpAddress, entry: ScopeEntry): boolean {
  if (entry.kind === 'ip') {
    const own = parseIp(entry.value)
    return own !== null && own.version === address.version && own.value === address.value
  }
  if (entry.kind !== 'cidr') return false
  const parsed = parseCidr(entry.value)
  return parsed !== null && 'range' in parsed && rangeContains(parsed.range, address)
}

/** Whether the entry names `address` by address: an ip or cidr entry covering it, or a url entry on it. */
export function entryNamesAddress(entry: ScopeEntry, address: IpAddress): boolean {
  if (entry.kind !== 'url') return addressInEntry(address, entry)
  const own = parseHttpUrl(entry.value)
  return own !== null && !('error' in own) && 'ip' in own.host && addressInEntry(address, { kind: 'ip', value: formatIp(own.host.ip) })
}

function rangeInEntry(range: IpRange, entry: ScopeEntry): boolean {
  if (entry.kind === 'ip') {
    return range.prefix === BITS[range.version] && addressInEntry({ version: range.version, value: range.first }, entry)
  }
  if (entry.kind !== 'cidr') return false
  const parsed = parseCidr(entry.value)
  return parsed !== null && 'range' in parsed && rangeContainsRange(parsed.range, range)
}

function urlInEntry(target: Extract<ScanTarget, { kind: 'url' }>, entry: ScopeEntry): boolean {
  if (entry.kind === 'url') {
    const own = parseHttpUrl(entry.value)
    if (!own || 'error' in own) return false
    return (
      own.url.protocol === target.url.protocol &&
      sameHost(own.host, target.host) &&
      effectivePort(own.url) === effectivePort(target.url) &&
      pathWithin(target.url.pathname, own.url.pathname)
    )
  }
  return 'name' in target.host ? nameInEntry(target.host.name, entry) : addressInEntry(target.host.ip, entry)
}

function targetInEntry(target: ScanTarget, entry: ScopeEntry): boolean {
  switch (target.kind) {
    case 'host':
      return nameInEntry(target.name, entry)
    case 'ip':
      return addressInEntry(target.address, entry)
    case 'range':
      return rangeInEntry(target.range, entry)
    case 'url':
      return urlInEntry(target, entry)
  }
}

/** The first entry of the scope that covers the target, or null (also for a target that does not parse). */
export function scopeEntryFor(scope: readonly ScopeEntry[], target: string): ScopeEntry | null {
  const parsed = parseScanTarget(target)
  if (!parsed) return null
  return scope.find((entry) => targetInEntry(parsed, entry)) ?? null
}

/**
 * Whether the target (host name, IP address, CIDR range or http(s) URL) lies within the scope. A
 * host name is covered only by domain and host entries, an address or range only by ip and cidr
 * entries (an IPv4-mapped IPv6 address counts as its IPv4 address), a URL by a url entry with its
 * origin and a path prefix, or by the entries that cover its host. Everything else is refused.
 */
export function targetInScope(scope: readonly ScopeEntry[], target: string): boolean {
  return scopeEntryFor(scope, target) !== null
}
