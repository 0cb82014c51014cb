// The one place the fleet asks whether a target may be scanned: the server when a job is queued and
// when its results arrive, the agent before it starts a scanner.
// Scopes are the company's entries (companies/{slug}/scan_scope/current). Until the shared scope
// matcher lands, a narrow interim check: the target's host equals an entry's host, lies under a
// domain entry or a `*.domain` entry, or an IPv4 address lies in an IPv4 range.

export interface JobScopeEntry {
  kind: string
  value: string
}

/** Where a company's scope is stored, and its entries from that document. */
export const companyScopePath = (company: string) => `companies/${company}/scan_scope/current`
export function scopeEntriesFromDocument(data: unknown): JobScopeEntry[] {
  const entries = (data as { entries?: unknown } | null | undefined)?.entries
  if (!Array.isArray(entries)) return []
  return entries.filter(
    (e): e is JobScopeEntry => typeof e === 'object' && e !== null && typeof e.kind === 'string' && typeof e.value === 'string',
  )
}

/** The host a target names: a URL's hostname, or the bare host or address. */
export function targetHost(target: string): string | null {
  const text = target.trim().toLowerCase()
  if (!text) return null
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text)) {
    try {
      return new URL(text).hostname.replace(/^\[|\]$/g, '')
    } catch {
      return null
    }
  }
  return text.replace(/^\[|\]$/g, '').replace(/:\d+$/, '')
}

const ipv4 = (text: string): number | null => {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (!parts) return null
  const bytes = parts.slice(1).map(Number)
  if (bytes.some((b) => b > 255)) return null
  return bytes.reduce((n, b) => n * 256 + b, 0)
}

function hostMatches(host: string, entry: JobScopeEntry): boolean {
  const scoped = targetHost(entry.value)
  if (!scoped) return false
  if (entry.kind === 'domain') return host === scoped || host.endsWith(`.${scoped}`)
  if (scoped.startsWith('*.')) return host.endsWith(scoped.slice(1)) && host.length > scoped.length - 1
  const range = /^(.+)\/(\d{1,2})$/.exec(scoped)
  if (range) {
    const base = ipv4(range[1]!)
    const address = ipv4(host)
    const bits = Number(range[2])
    if (base === null || address === null || bits > 32) return false
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
    return (base & mask) >>> 0 === (address & mask) >>> 0
  }
  return host === scoped
}

/** Whether `target` lies within one of the scope's entries; anything unreadable is refused. */
export function jobTargetAllowed(target: string, scope: readonly JobScopeEntry[]): boolean {
  const host = targetHost(target)
  if (!host) return false
  return scope.some((entry) => hostMatches(host, entry))
}

/** Loopback: 127.0.0.0/8, ::1 and localhost. The agent scans nothing else unless its operator says so. */
export function isLoopbackTarget(target: string): boolean {
  const host = targetHost(target)
  if (!host) return false
  if (host === 'localhost' || host === '::1') return true
  const address = ipv4(host)
  return address !== null && address >>> 24 === 127
}
