import { SIGN_IN_PATH } from '#domain/sign-in.ts'

/**
 * The page a person asked for before signing in, kept in this browser until the emailed link
 * completes sign-in (in the web app and in the desktop app, which shares the browser's storage).
 */
const KEY = 'returnAfterSignIn'
const BASE = 'https://same-site.invalid'

/**
 * `value` as a path of this site (path, query and fragment), or null: anything that leaves the site
 * (`//host`, `/\host`, a scheme) or loops back into sign-in is refused.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null
  // Control characters and spaces can make a browser read a path as another host.
  if ([...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)) return null
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return null
  }
  if (url.origin !== BASE) return null
  if (url.pathname === SIGN_IN_PATH || url.pathname === '/') return null
  return `${url.pathname}${url.search}${url.hash}`
}

export const returnPath = {
  /** Keeps `path` when it is a page of this site; forgets any earlier one otherwise. */
  keep(path: unknown) {
    const safe = safeReturnPath(path)
    if (safe) window.localStorage.setItem(KEY, safe)
    else window.localStorage.removeItem(KEY)
  },
  /** The kept page (checked again: storage is not trusted), forgotten once read. */
  take(): string | null {
    const value = window.localStorage.getItem(KEY)
    window.localStorage.removeItem(KEY)
    return safeReturnPath(value)
  },
}
