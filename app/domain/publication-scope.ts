// Which scans a publication compares with and whether it is a side scan (decision 0045): a scan
// compares only with published scans of its own scope key, and only the findings those scans saw
// last can become "not detected". A scope no published scan of the service has is a side scan's
// (one host, say), unless the service has no published scan at all: then it is the first
// whole-service scan. A scope keeps what its first scan was. Pure: the publish and preview
// callables ask it.
import type { Scan } from './scans.ts'
import type { ServiceId } from './services.ts'

export type ScopedScan = Pick<Scan, 'id' | 'scopeKey' | 'startedAt' | 'side'>

export interface PublicationScope<S extends ScopedScan> {
  /** The latest published scan of the same scope started no later than this one: what its counts compare with. */
  previous: S | null
  /** Published scans of the same scope: the findings they saw last are the ones this scan may close. */
  sameScope: S[]
  /** Published as a side scan: never the service's latest whole-service scan. */
  side: boolean
}

/** `published`: the service's published scans (this one left out, in any order). */
export function publicationScope<S extends ScopedScan>(scan: ScopedScan, published: readonly S[]): PublicationScope<S> {
  const others = published.filter((s) => s.id !== scan.id)
  const sameScope = others.filter((s) => s.scopeKey === scan.scopeKey).sort((a, b) => b.startedAt - a.startedAt)
  const previous = sameScope.find((s) => s.startedAt <= scan.startedAt) ?? null
  const side = sameScope.length > 0 ? sameScope.some((s) => s.side) : others.length > 0
  return { previous, sameScope, side }
}

/** The scope key of a scan's own targets, the default when the analyst names none. */
export const targetsScopeKey = (service: ServiceId, targets: readonly string[]): string =>
  `${service}:${[...new Set(targets)].sort().slice(0, 20).join(',')}`.slice(0, 500)
