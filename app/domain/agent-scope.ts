// The one place the fleet asks whether a target may be scanned: the server when a job is queued and
// when its results arrive, the agent before it starts a scanner.
// Scopes are the company's entries (scan-scope.ts, companies/{slug}/scan_scope/current), matched by
// the shared scope matcher; a job keeps the entries it was queued with.
import { scanScopeFromDocument, scanScopePath, targetInScope, type ScopeEntry } from './scan-scope.ts'

export type JobScopeEntry = ScopeEntry

/** Where a company's scope is stored, and its entries from that document. */
export const companyScopePath = scanScopePath
export const scopeEntriesFromDocument = (data: unknown): JobScopeEntry[] => scanScopeFromDocument(data)

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

/** Whether `target` lies within one of the scope's entries; anything unreadable is refused. */
export function jobTargetAllowed(target: string, scope: readonly JobScopeEntry[]): boolean {
  return targetInScope(scope, target)
}
