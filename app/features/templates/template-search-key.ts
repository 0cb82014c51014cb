// The template search key kept in this tab (sessionStorage) for the person it was made for, until it
// is due for renewal: a later visit to the list searches at once instead of asking for a key first.
// It is a secured, search-only key of limited life, the same the page holds in memory anyway. Apart
// from the search client so that keeping the key the edge searched with loads nothing more.
import * as v from 'valibot'
import { SearchClientResponseSchema, type SearchClientResponse } from '#domain/template-library-calls.ts'
import { clientBoot } from '~/core/client-boot'

const KEPT_KEY = 'templateSearchKey'
const KeptKeySchema = v.object({ uid: v.string(), renewAfter: v.number(), response: SearchClientResponseSchema })

const signedInUid = (): string | null => {
  try {
    return clientBoot.current().session?.uid ?? null
  } catch {
    return null
  }
}

/** The key kept for the signed-in person, while it is valid. */
export function keptKey(): { response: SearchClientResponse; renewAfter: number } | null {
  const uid = signedInUid()
  if (!uid) return null
  try {
    const parsed = v.safeParse(KeptKeySchema, JSON.parse(window.sessionStorage.getItem(KEPT_KEY) ?? 'null'))
    if (parsed.success && parsed.output.uid === uid && Date.now() < parsed.output.renewAfter) return parsed.output
  } catch {
    // Unreadable: ask for a new one.
  }
  window.sessionStorage.removeItem(KEPT_KEY)
  return null
}

/** Keeps a key for the signed-in person (nothing without one). */
export function keepKey(response: SearchClientResponse, renewAfter: number): void {
  const uid = signedInUid()
  if (uid) window.sessionStorage.setItem(KEPT_KEY, JSON.stringify({ uid, renewAfter, response }))
}

/**
 * Keeps a key the server's render searched with, so the list's next search here does not ask for
 * one first (unless a valid one is kept already).
 */
export function adoptSearchKey(response: SearchClientResponse, renewAfter: number): void {
  if (Date.now() < renewAfter && !keptKey()) keepKey(response, renewAfter)
}

export function forgetKeptKey(): void {
  window.sessionStorage.removeItem(KEPT_KEY)
}
