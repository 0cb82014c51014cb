import { createIsomorphicFn, createServerFn } from '@tanstack/react-start'
import { getCookie } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { publicConfig } from '~/server/config.server'
import { endSession as endServerSession, establishSession, readSession } from '~/server/session.server'
import { loadWorkspace, readWorkspaceNow } from '~/server/workspace.server'
import { clientBoot, type RootContext } from './client-boot'
import { parseWorkspaceMark, WORKSPACE_MARK_COOKIE } from './workspace-mark'

const TokensSchema = v.object({
  idToken: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)),
  refreshToken: v.pipe(v.string(), v.minLength(1), v.maxLength(4_096)),
})

/**
 * After sign-in and on every token change: the edge verifies the token, keeps the session in
 * cookies and answers with the session and workspace the pages need.
 */
export const startSession = createServerFn({ method: 'POST' })
  .validator(TokensSchema)
  .handler(async ({ data }) => {
    const session = await establishSession(data.idToken, data.refreshToken)
    const workspace = session ? await readWorkspaceNow(session, data.idToken) : null
    if (session && !workspace) {
      // Revoked between the edge's check and the workspace read: no session after all.
      await endServerSession()
      return { session: null, workspace: null }
    }
    return { session, workspace }
  })

/** Sign-out: the cookies go, so the next server render is signed out too, and a copy of them stops working. */
export const endSession = createServerFn({ method: 'POST' }).handler(async () => {
  await endServerSession()
  return null
})

/**
 * The session, workspace and Firebase settings for the root route. On the server they come from
 * the request's cookies, the user's Firestore documents (read at most a few seconds ago: decision
 * 0029) and the Worker's configuration; in the browser, from what the server rendered with, kept
 * up to date by the live listeners.
 */
export const loadRootContext = createIsomorphicFn()
  .server(async (): Promise<RootContext> => {
    const current = await readSession()
    const workspace = current ? await loadWorkspace(current, parseWorkspaceMark(getCookie(WORKSPACE_MARK_COOKIE))) : null
    // A sign-in the rules no longer take renders signed out, as a revoked one does.
    const signedIn = workspace && current ? current : null
    return { session: signedIn?.session ?? null, firebase: publicConfig(), workspace, tokenIssuedAt: signedIn?.issuedAt ?? null }
  })
  .client((): Promise<RootContext> => clientBoot.ready())
