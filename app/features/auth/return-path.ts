import { safeReturnPath } from '#domain/sign-in.ts'

/**
 * The page a person asked for before signing in, kept in this browser until the emailed link
 * completes sign-in (in the web app and in the desktop app, which shares the browser's storage).
 */
const KEY = 'returnAfterSignIn'

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
