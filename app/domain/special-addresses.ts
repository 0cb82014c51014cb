// Addresses a scan never reaches unless the company's scope names them by address: the IANA IPv4
// and IPv6 special-purpose address registries (RFC 6890 and the RFCs that added to them), the
// multicast and reserved blocks, and the IPv6 forms that embed an IPv4 address (mapped,
// compatible, NAT64, 6to4), which are judged by the address they embed. A name in scope proves
// nothing about where it resolves, so the agent resolves every name itself and asks here about
// each address (decision 0034).
import { entryNamesAddress, parseIp, rangeContains, type IpAddress, type IpRange, type ScopeEntry } from './scan-scope.ts'

export interface SpecialRange {
  range: IpRange
  cidr: string
  /** What the registry calls it, as a person reads it in a refusal. */
  name: string
}

function rangeOf(cidr: string, name: string): SpecialRange {
  const [address, prefix] = cidr.split('/')
  const parsed = parseIp(address!)
  if (!parsed) throw new Error(`Bad special-purpose range ${cidr}`)
  return { range: { version: parsed.version, first: parsed.value, prefix: Number(prefix) }, cidr, name }
}

const IPV4_SPECIAL: SpecialRange[] = [
  rangeOf('0.0.0.0/8', '“this network”'),
  rangeOf('10.0.0.0/8', 'private-use'),
  rangeOf('100.64.0.0/10', 'shared address space (carrier-grade NAT)'),
  rangeOf('127.0.0.0/8', 'loopback'),
  rangeOf('169.254.0.0/16', 'link-local (cloud metadata services live here)'),
  rangeOf('172.16.0.0/12', 'private-use'),
  rangeOf('192.0.0.0/24', 'IETF protocol assignments'),
  rangeOf('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  rangeOf('192.31.196.0/24', 'AS112'),
  rangeOf('192.52.193.0/24', 'AMT'),
  rangeOf('192.88.99.0/24', 'deprecated 6to4 relay anycast'),
  rangeOf('192.168.0.0/16', 'private-use'),
  rangeOf('192.175.48.0/24', 'AS112 direct delegation'),
  rangeOf('198.18.0.0/15', 'benchmarking'),
  rangeOf('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  rangeOf('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  rangeOf('224.0.0.0/4', 'multicast'),
  rangeOf('240.0.0.0/4', 'reserved'),
]

const IPV6_SPECIAL: SpecialRange[] = [
  rangeOf('::/128', 'unspecified'),
  rangeOf('::1/128', 'loopback'),
  rangeOf('100::/64', 'discard-only'),
  rangeOf('2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'),
  rangeOf('2001:db8::/32', 'documentation'),
  rangeOf('3fff::/20', 'documentation'),
  rangeOf('5f00::/16', 'segment routing (SRv6) identifiers'),
  rangeOf('fc00::/7', 'unique local'),
  rangeOf('fe80::/10', 'link-local'),
  rangeOf('fec0::/10', 'deprecated site-local'),
  rangeOf('ff00::/8', 'multicast'),
]

/** IPv6 blocks whose addresses carry an IPv4 address in their last 32 bits (6to4: bits 16 to 47). */
const EMBEDS_IPV4: { range: SpecialRange; embedded: (value: bigint) => bigint }[] = [
  { range: rangeOf('::ffff:0:0/96', 'IPv4-mapped'), embedded: (value) => value & 0xffffffffn },
  { range: rangeOf('::/96', 'IPv4-compatible (deprecated)'), embedded: (value) => value & 0xffffffffn },
  { range: rangeOf('64:ff9b::/96', 'NAT64'), embedded: (value) => value & 0xffffffffn },
  { range: rangeOf('64:ff9b:1::/48', 'local-use NAT64'), embedded: (value) => value & 0xffffffffn },
  { range: rangeOf('2002::/16', '6to4'), embedded: (value) => (value >> 80n) & 0xffffffffn },
]

export interface AddressVerdict {
  /** The special-purpose block the address lies in, or null for an ordinary public address. */
  special: SpecialRange | null
  /** The IPv4 address an IPv6 form embeds, which is what a connection to it reaches. */
  embedded: IpAddress | null
}

/** The special-purpose block an address lies in (for an IPv6 form embedding IPv4, the embedded one's), or null. */
export function specialPurposeRange(address: IpAddress): SpecialRange | null {
  return classifyAddress(address).special
}

export function classifyAddress(address: IpAddress): AddressVerdict {
  if (address.version === 6) {
    const wrapper = EMBEDS_IPV4.find(({ range }) => rangeContains(range.range, address))
    if (wrapper) {
      const embedded: IpAddress = { version: 4, value: wrapper.embedded(address.value) }
      // ::/128 and ::1/128 lie inside ::/96 but are IPv6's own unspecified and loopback addresses.
      const own = IPV6_SPECIAL.find((special) => special.range.prefix === 128 && rangeContains(special.range, address))
      if (own) return { special: own, embedded: null }
      return { special: classifyAddress(embedded).special ?? (wrapper.range.cidr === '::/96' ? wrapper.range : null), embedded }
    }
    return { special: IPV6_SPECIAL.find((special) => rangeContains(special.range, address)) ?? null, embedded: null }
  }
  return { special: IPV4_SPECIAL.find((special) => rangeContains(special.range, address)) ?? null, embedded: null }
}

/** The address a connection reaches: an IPv6 form embedding IPv4 reaches that IPv4 address. */
export function effectiveAddress(address: IpAddress): IpAddress {
  return classifyAddress(address).embedded ?? address
}

/**
 * Whether the scope names this address by address: an ip or cidr entry that covers it, or a url
 * entry whose host is this very address. Only then may a special-purpose address be scanned.
 */
export function scopeNamesAddress(scope: readonly ScopeEntry[], address: IpAddress): boolean {
  const reached = effectiveAddress(address)
  return scope.some((entry) => entryNamesAddress(entry, address) || entryNamesAddress(entry, reached))
}

/**
 * Why the agent may not connect to `address` for a job with this scope, in words, or null when it
 * may: a special-purpose address needs the scope to name it by address; in loopback-only mode,
 * nothing but loopback. `name` is the host name that resolved to it, if any.
 */
export function addressRefusal(
  address: IpAddress,
  text: string,
  scope: readonly ScopeEntry[],
  loopbackOnly: boolean,
  name?: string,
): string | null {
  const { special } = classifyAddress(address)
  const loopback = special?.name === 'loopback'
  const what = name ? `${name} resolves to ${text}, which` : text
  if (loopbackOnly && !loopback) return `${what} is not a loopback address; this agent scans loopback only`
  if (special && !scopeNamesAddress(scope, address)) {
    return `${what} is a ${special.name} address (${special.cidr}) that the scan scope does not list by address`
  }
  return null
}
