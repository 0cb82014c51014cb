import { createIsomorphicFn, createServerFn } from '@tanstack/react-start'
import * as v from 'valibot'
import { publicConfig } from '~/server/config.server'
import { clearSessionCookies, establishSession, readSession } from '~/server/session.server'
import { clientBoot } from './client-boot'
import type { RouterContext } from './session'

const TokensSchema = v.object({
  idToken: v.pipe(v.string(), v.minLength(1), v.maxLength(16_384)),
  refreshToken: v.pipe(v.string(), v.minLength(1), v.maxLength(4_096)),
})

/** After sign-in and on every token change: the edge verifies the token and keeps the session in cookies. */
export const startSession = createServerFn({ method: 'POST' })
  .validator(TokensSchema)
  .handler(async ({ data }) => establishSession(data.idToken, data.refreshToken))

/** Sign-out: the cookies go, so the next server render is signed out too. */
export const endSession = createServerFn({ method: 'POST' }).handler(() => {
  clearSessionCookies()
  return null
})

/**
 * The session and Firebase settings for the root route. On the server they come from the request's
 * cookies and the Worker's configuration; in the browser, from what the server rendered with,
 * kept up to date by the auth listener.
 */
export const loadRootContext = createIsomorphicFn()
  .server(async (): Promise<Required<RouterContext>> => ({ session: await readSession(), firebase: publicConfig() }))
  .client(async (): Promise<Required<RouterContext>> => clientBoot.current())
