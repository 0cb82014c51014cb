// The session's upkeep in the browser: every new ID token goes to the edge, an administrator's
// revocation signs out at once, a change of access refreshes the token. Loaded with `import()`
// (it brings the Firebase SDK), so the first page stays small.
import { onIdTokenChanged, signOut, type User } from 'firebase/auth'
import { doc, onSnapshot } from 'firebase/firestore'
import { readUserAccess, revokesSignIn, userAccessPath } from '#domain/users-access.ts'
import { clientBoot } from './client-boot'
import { firebaseAuth, firestore } from './firebase'
import { samePlainData } from './same-plain-data'
import type { Session } from './session'
import { endSession, startSession } from './session.functions'

// Session hand-overs to the edge still under way. Each sets the cookies when it returns, so a
// sign-out waits for them first: one that returned afterwards would sign the browser back in.
const pendingSyncs = new Set<Promise<unknown>>()

/** Hands the user's current ID token to the edge, which answers with the session and workspace. */
export async function syncSession(user: User, forceRefresh: boolean): Promise<{ session: Session | null; changed: boolean }> {
  const handOver = user.getIdToken(forceRefresh).then((idToken) => startSession({ data: { idToken, refreshToken: user.refreshToken } }))
  pendingSyncs.add(handOver)
  try {
    const { session, workspace } = await handOver
    // Signed out while the edge answered: the cookies it just set go again.
    if (firebaseAuth().currentUser?.uid !== user.uid) {
      await endSession()
      return { session: null, changed: true }
    }
    // On a page load the page mostly shows just what the edge answers: then nothing needs to run again.
    const shown = clientBoot.current()
    const changed = !samePlainData(shown.session, session) || !samePlainData(shown.workspace, workspace)
    clientBoot.setSession(session)
    clientBoot.setWorkspace(workspace)
    return { session, changed }
  } finally {
    pendingSyncs.delete(handOver)
  }
}

/**
 * Tells this browser's other tabs of a sign-out before the Firebase SDK does: they stop their
 * listeners first, so none of them is refused (and logs it) once the sign-in is gone.
 */
const sessionChannel = (): BroadcastChannel | null => (typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('session'))
const SIGNED_OUT = 'signed-out'

export async function signOutEverywhere(): Promise<void> {
  const channel = sessionChannel()
  channel?.postMessage(SIGNED_OUT)
  channel?.close()
  await signOut(firebaseAuth()).catch(() => undefined)
  await Promise.allSettled(pendingSyncs)
  await endSession()
  clientBoot.setSession(null)
}

/** Whether the edge's session is this user's, from a token issued in the same second as theirs. */
function edgeHolds(uid: string, issuedAt: number): boolean {
  const shown = clientBoot.current()
  return shown.session?.uid === uid && shown.tokenIssuedAt === issuedAt
}

const seconds = (milliseconds: number | null | undefined) => (typeof milliseconds === 'number' ? milliseconds / 1000 : null)

/** How many tokens a change of access asks for before the page goes on with the one it has. */
const REFRESH_TRIES = 3

/**
 * Takes a token issued after `synced` (seconds). A token tells its issue time to the second, and
 * within one second the server hands the same token out again: one taken in the sync's own second
 * reads as older than the sync for ever after (every page load would refresh it again, and restart
 * the listeners for it). So the next is asked for a second later: by then the second has turned.
 */
async function refreshPast(user: User, synced: number, wanted: () => boolean): Promise<void> {
  for (let tried = 0; tried < REFRESH_TRIES; tried++) {
    if (tried > 0) await new Promise((resolve) => setTimeout(resolve, 1000))
    // Signed out, or the page stopped watching, meanwhile.
    if (!wanted()) return
    const token = await user.getIdTokenResult(true)
    if (Date.parse(token.issuedAtTime) / 1000 >= synced) return
  }
}

/**
 * Keeps a signed-in browser in step: every new ID token goes to the edge; an administrator's
 * revocation signs the user out at once; a change of access refreshes the token. `onChange` is
 * told whenever the session changed, so the app can re-render its guards and navigation.
 */
export function watchSession(onChange: (session: Session | null) => void): () => void {
  let stopAccess: (() => void) | undefined
  let lastToken: string | undefined
  let ended = false
  // One refresh at a time: each new token it brings restarts the access listener, which asks again.
  let refreshing: Promise<void> | undefined
  let stopped = false
  const refresh = (user: User, synced: number) =>
    (refreshing ??= refreshPast(user, synced, () => !stopped && !ended).finally(() => (refreshing = undefined)))

  // Once: signing out of the SDK fires the token listener again with no user.
  const end = async () => {
    if (ended) return
    ended = true
    stopAccess?.()
    await signOutEverywhere()
    onChange(null)
  }

  // Another tab signed out: stop at once, before the SDK's own news of it reaches the listeners.
  const channel = sessionChannel()
  channel?.addEventListener('message', (event: MessageEvent) => {
    if (event.data !== SIGNED_OUT || ended) return
    ended = true
    stopAccess?.()
    stopAccess = undefined
    clientBoot.setSession(null)
    clientBoot.setWorkspace(null)
    onChange(null)
  })

  const stopToken = onIdTokenChanged(firebaseAuth(), async (user) => {
    stopAccess?.()
    stopAccess = undefined
    // Signed out in the Firebase SDK (another tab, cleared storage): end the edge session too.
    if (!user) return end()
    const token = await user.getIdTokenResult()
    const issuedAt = Date.parse(token.issuedAtTime) / 1000
    // On a page load the edge mostly holds this very token already (it rendered the page with it):
    // handing it over again would only repeat the edge's reads.
    if (lastToken === undefined && edgeHolds(user.uid, issuedAt)) lastToken = token.token
    if (token.token !== lastToken) {
      try {
        const { session, changed } = await syncSession(user, false)
        lastToken = token.token
        if (changed) onChange(session)
      } catch (error) {
        // The edge could not take the token (it could not reach the database): the session it
        // already holds stands, and the next token is handed over as usual.
        console.warn('The session could not be handed to the server; it keeps the one it has.', error)
      }
    }
    const signedInAt = Date.parse(token.authTime) / 1000
    stopAccess = onSnapshot(
      doc(firestore(), userAccessPath(user.uid)),
      async (snapshot) => {
        const { claims } = readUserAccess(snapshot.data())
        const synced = seconds(claims.synced)
        if (revokesSignIn(seconds(claims.revoked), signedInAt)) await end()
        else if (synced !== null && synced > issuedAt) await refresh(user, synced)
      },
      // Reading one's own access is always allowed; a denial means the sign-in is no longer valid.
      () => void end(),
    )
  })
  return () => {
    stopped = true
    channel?.close()
    stopToken()
    stopAccess?.()
  }
}
