// The agent's check of every address a scan reaches (decision 0034). A target must be in the job's
// scope in its canonical form; its host is resolved here, by the agent, and every address found
// must pass addressRefusal: special-purpose addresses (loopback, private, link-local and cloud
// metadata, documentation, multicast…) only where the scope names them by address, and nothing but
// loopback unless the operator allowed more. What a name resolved to is pinned for the whole job:
// the scanners are handed the addresses, or reach the network through the egress proxy, which
// asks this same guard about every request, so no second lookup can move a scan elsewhere.
import { Resolver } from 'node:dns/promises'
import { isIP } from 'node:net'
import { jobTargetAllowed, targetHost, type JobScopeEntry } from '#domain/agent-scope.ts'
import { canonicalScanTarget, formatIp, parseIp, parseScanTarget } from '#domain/scan-scope.ts'
import { addressRefusal, classifyAddress } from '#domain/special-addresses.ts'

export interface TargetCheck {
  target: string
  allowed: boolean
  reason?: string
}

/** The addresses a name resolves to (A and AAAA), none when it has none. */
export type NameResolver = (name: string) => Promise<string[]>

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN'])

/**
 * Resolution through DNS servers (`host` or `host:port`; the system's when none are given),
 * straight from the answers: no hosts file and no cache shared with the scanners. `localhost` and
 * names under it are loopback (RFC 6761).
 */
export function dnsResolver(servers: readonly string[] = []): NameResolver {
  const resolver = new Resolver({ timeout: 5_000, tries: 2 })
  if (servers.length) resolver.setServers([...servers])
  const ask = (query: Promise<string[]>) =>
    query.catch((error: NodeJS.ErrnoException) => {
      if (error.code && NO_ANSWER.has(error.code)) return []
      throw new Error(`resolving failed (${error.code ?? error.message})`)
    })
  return async (name) => {
    if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1']
    const [v4, v6] = await Promise.all([ask(resolver.resolve4(name)), ask(resolver.resolve6(name))])
    return [...v4, ...v6]
  }
}

/** A job whose targets, or an address they led to, the guard refused: it would be refused again, so it is not retried. */
export class TargetRefused extends Error {
  constructor(reasons: string[]) {
    super(`Refused to scan: ${reasons.join('; ')}`)
  }
}

export type HostVerdict = { addresses: string[] } | { refusal: string }

/** One job's guard: its scope, its mode, and the addresses each host was pinned to. */
export class TargetGuard {
  private readonly verdicts = new Map<string, Promise<HostVerdict>>()
  private readonly scope: readonly JobScopeEntry[]
  private readonly loopbackOnly: boolean
  private readonly resolve: NameResolver

  constructor(scope: readonly JobScopeEntry[], options: { loopbackOnly: boolean; resolve: NameResolver }) {
    this.scope = scope
    this.loopbackOnly = options.loopbackOnly
    this.resolve = options.resolve
  }

  /** Whether a target may be scanned, checked whole: scope, then every address it resolves to. */
  async check(target: string): Promise<TargetCheck> {
    const canonical = canonicalScanTarget(target)
    if (canonical === null) return { target, allowed: false, reason: `${target} is not a target that reads the same to every URL parser` }
    if (!jobTargetAllowed(canonical, this.scope)) return { target, allowed: false, reason: `${target} is outside the job's scope` }
    const parsed = parseScanTarget(canonical)
    if (parsed?.kind === 'range') {
      // A range is in scope only through an ip or cidr entry, which names it by address.
      const loopback = classifyAddress({ version: parsed.range.version, value: parsed.range.first }).special?.name === 'loopback'
      const whole = parsed.range.version === 4 ? parsed.range.prefix >= 8 : parsed.range.prefix === 128
      if (this.loopbackOnly && !(loopback && whole))
        return { target, allowed: false, reason: `${target} is not loopback; this agent scans loopback only` }
      return { target: canonical, allowed: true }
    }
    const host = targetHost(canonical)
    if (!host) return { target, allowed: false, reason: `${target} names no host` }
    const verdict = await this.host(host)
    if ('refusal' in verdict) return { target, allowed: false, reason: verdict.refusal }
    return { target: canonical, allowed: true }
  }

  /** The addresses `host` is pinned to for this job, resolved once; or why it may not be reached. */
  host(host: string): Promise<HostVerdict> {
    const key = host.toLowerCase().replace(/^\[|\]$/g, '')
    let verdict = this.verdicts.get(key)
    if (!verdict) {
      verdict = this.judge(key)
      this.verdicts.set(key, verdict)
    }
    return verdict
  }

  /** The names this job resolved and the addresses each was pinned to: the result carries them. */
  async pins(): Promise<{ host: string; addresses: string[] }[]> {
    const pinned: { host: string; addresses: string[] }[] = []
    for (const [host, verdict] of this.verdicts) {
      const answer = await verdict
      if (!isIP(host) && 'addresses' in answer) pinned.push({ host, addresses: answer.addresses })
    }
    return pinned
  }

  private async judge(host: string): Promise<HostVerdict> {
    let texts: string[]
    if (isIP(host)) texts = [host]
    else {
      try {
        texts = await this.resolve(host)
      } catch (error) {
        return { refusal: `${host}: ${(error as Error).message}` }
      }
    }
    if (texts.length === 0) return { refusal: `${host} does not resolve` }
    const addresses: string[] = []
    for (const text of texts) {
      const address = parseIp(text)
      if (!address) return { refusal: `${host} resolved to ${text}, which is not an address` }
      const refusal = addressRefusal(address, formatIp(address), this.scope, this.loopbackOnly, text === host ? undefined : host)
      if (refusal) return { refusal }
      addresses.push(formatIp(address))
    }
    return { addresses }
  }
}
