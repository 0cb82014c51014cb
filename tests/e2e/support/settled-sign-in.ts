// A settled sign-in. A sign-in marks the person's access synced (`claims.synced`) after their first
// token was issued, and so does every later sign-in of theirs and every change of their access; a
// page whose token is older takes a newer one (session-live.ts), and Firestore restarts its listen
// stream for it. The e2e fixtures keep browser states whose token is not older (tests then start
// settled), and the Lighthouse bench measures pages that do not pay for the sign-in.
import { expect, type Page } from '@playwright/test'
import { readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { documentOf } from './admin.ts'

/** The cookie that holds the ID token the edge renders with (app/server/session.server.ts). */
const SESSION_COOKIE = '__Host-session'

export interface StoredToken {
  uid: string
  /** When the ID token was issued, in seconds. */
  issuedAt: number
}

/**
 * The user and issue time of the ID token Firebase Auth keeps in this browser; null when there is
 * none.
 */
const storedToken = () =>
  new Promise<StoredToken | null>((resolve) => {
    const open = indexedDB.open('firebaseLocalStorageDb')
    open.onerror = () => resolve(null)
    open.onsuccess = () => {
      const db = open.result
      if (!db.objectStoreNames.contains('firebaseLocalStorage')) return resolve(null)
      const rows = db.transaction('firebaseLocalStorage').objectStore('firebaseLocalStorage').getAll()
      rows.onsuccess = () => {
        const user = (rows.result as { value?: { uid?: string; stsTokenManager?: { accessToken?: string } } }[])
          .map((row) => row.value)
          .find((value) => value?.uid && value.stsTokenManager?.accessToken)
        if (!user) return resolve(null)
        const payload = user.stsTokenManager!.accessToken!.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/')
        const issuedAt = (JSON.parse(atob(payload)) as { iat: number }).iat
        resolve({ uid: user.uid!, issuedAt })
      }
    }
  })

/** When the person's access was last marked synced, in seconds; null when it never was. */
export async function syncedAt(uid: string): Promise<number | null> {
  const { synced } = readUserAccess(await documentOf(userAccessPath(uid))).claims
  return synced == null ? null : synced / 1000
}

/** A token issued at `issuedAt` is older than the person's last sync: a page would take a newer one. */
export const isStale = (issuedAt: number, synced: number | null): boolean => synced !== null && synced > issuedAt

const issuedAtOf = (jwt: string): number =>
  (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as { iat: number }).iat

/**
 * Waits until the browser holds a token not older than the person's last sync and has handed it
 * to the edge (the session cookie holds it), and returns it; null when the browser is signed out.
 * Fails after `timeout` milliseconds.
 */
export async function settledToken(page: Page, timeout = 20_000): Promise<StoredToken | null> {
  const held = await page.evaluate(storedToken)
  if (!held) return null
  const synced = await syncedAt(held.uid)
  let token = held
  if (synced !== null && isStale(held.issuedAt, synced)) {
    await expect
      .poll(async () => (token = (await page.evaluate(storedToken)) ?? token).issuedAt, {
        timeout,
        message: 'the browser takes the token that follows the sync',
      })
      .toBeGreaterThanOrEqual(synced)
  }
  const edgeToken = async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)
    return cookie ? issuedAtOf(cookie.value) : null
  }
  await expect.poll(edgeToken, { timeout, message: 'the session cookie holds the settled token' }).toBeGreaterThanOrEqual(token.issuedAt)
  return token
}

/** The bench's wait: as `settledToken`, but a sign-in that does not settle only costs a warning. */
export async function waitForTokenAfterSignIn(page: Page): Promise<void> {
  try {
    await settledToken(page)
  } catch {
    console.warn('The token that follows the sign-in did not settle within 20 s: the first run may pay for it.')
  }
}
