// A finished sign-in (the Lighthouse bench waits for it): the browser holds the ID token issued
// after the sign-in marked the person's access synced (session-live.ts takes a newer token while
// `claims.synced` is later than its own).
import type { Page } from '@playwright/test'
import { readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { documentOf } from './admin.ts'

/**
 * The user and the issue time (seconds) of the ID token Firebase Auth keeps in this browser; null
 * when there is none, or when it was issued before `since`.
 */
const storedToken = (since: number) =>
  new Promise<{ uid: string; issuedAt: number } | null>((resolve) => {
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
        resolve(issuedAt >= since ? { uid: user.uid!, issuedAt } : null)
      }
    }
  })

/**
 * A sign-in marks the person's access synced after their first token was issued; the page then
 * takes a newer token, and Firestore restarts its listen stream for it. Waits until the browser
 * holds that token, so that a browser state saved now starts settled: its pages neither take
 * another token nor restart their listeners.
 */
export async function waitForTokenAfterSignIn(page: Page): Promise<void> {
  const token = await page.evaluate(storedToken, -Infinity)
  if (!token) return
  const { synced } = readUserAccess(await documentOf(userAccessPath(token.uid))).claims
  if (synced == null) return
  try {
    await page.waitForFunction(storedToken, synced / 1000, { polling: 100, timeout: 20_000 })
  } catch {
    console.warn('The token that follows the sign-in did not come within 20 s: the first run may pay for it.')
  }
}
