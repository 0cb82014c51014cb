import { deleteCookie, getCookie, getRequest, setCookie } from '@tanstack/react-start/server'
import { accessFromClaims, tokenRevoked } from '#domain/users-access.ts'
import type { Session } from '~/core/session'
import { publicConfig, serverConfig } from './config.server'
import { firestoreReader } from './firestore-rest.server'
import { createIdTokenVerifier, IdTokenError, type IdTokenVerifier, type VerifiedIdToken } from './id-token.server'
import { createRevocations, type Revocations } from './revocations.server'
import { refreshIdToken } from './secure-token.server'
import { endSessionId, sessionEnded } from './ended-sessions.server'
import { newSessionId, openRefreshToken, sealRefreshToken, type SessionSecrets } from './sealed-refresh-token.server'

/** How long a browser stays signed in without coming back; each visit renews it. */
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60

// `__Host-` cookies are Secure, host-only and path `/`: nothing on another subdomain or path can
// set or shadow them. Browsers treat http://127.0.0.1 and localhost as secure, so local runs match
// production.
const COOKIE = { idToken: '__Host-session', refresh: '__Host-refresh' } as const

const cookieOptions = { httpOnly: true, secure: true, sameSite: 'lax', path: '/', maxAge: SESSION_MAX_AGE_SECONDS } as const

let verifier: IdTokenVerifier | undefined
function idTokenVerifier(): IdTokenVerifier {
  const config = serverConfig()
  verifier ??= createIdTokenVerifier({ projectId: config.projectId, jwksUrl: config.jwksUrl, emulator: config.emulators !== null })
  return verifier
}

let revocations: Revocations | undefined
function revocationsOf(): Revocations {
  revocations ??= createRevocations({ reader: (idToken) => firestoreReader(publicConfig(), idToken) })
  return revocations
}

/**
 * The session of a verified token, or null when the sign-in was revoked: by the token's own claim,
 * or (for tokens minted before the revocation) by users_access, as this isolate read it lately.
 */
async function currentSession(token: VerifiedIdToken, idToken: string): Promise<Session | null> {
  const session = sessionFromToken(token)
  if (!session) return null
  return (await revocationsOf().revoked(token.uid, idToken, token.authTime)) ? null : session
}

/** The signed-in person a verified token describes, or null when an administrator revoked the sign-in. */
export function sessionFromToken(token: VerifiedIdToken): Session | null {
  if (tokenRevoked(token.claims, token.authTime)) return null
  const access = accessFromClaims(token.claims)
  return { uid: token.uid, email: token.email ?? '', userType: access.userType ?? 'client', accessLevel: access.accessLevel ?? 0 }
}

function sessionSecrets(): SessionSecrets {
  const config = serverConfig()
  return { current: config.sessionSecret, previous: config.previousSessionSecret }
}

async function writeCookies(idToken: string, uid: string, refreshToken: string, sessionId: string): Promise<void> {
  const sealed = await sealRefreshToken(sessionSecrets(), uid, refreshToken, SESSION_MAX_AGE_SECONDS, sessionId)
  setCookie(COOKIE.idToken, idToken, cookieOptions)
  setCookie(COOKIE.refresh, sealed, cookieOptions)
}

/** Sign-out: the cookies go, and the sealed one is recorded as ended, so a copy of it no longer works. */
export async function endSession(): Promise<void> {
  const sealed = getCookie(COOKIE.refresh)
  const opened = sealed ? await openRefreshToken(sessionSecrets(), sealed) : null
  clearSessionCookies()
  if (opened) await endSessionId(opened.sessionId, opened.expiresAt)
}

export function clearSessionCookies(): void {
  deleteCookie(COOKIE.idToken, { path: '/', secure: true })
  deleteCookie(COOKIE.refresh, { path: '/', secure: true })
}

/** What the browser is told whatever was wrong with the token; the reason goes to the Worker's log. */
export const SESSION_REFUSED = 'The sign-in could not be verified. Please sign in again.'

/** Starts the session of this browser from a fresh ID token and its refresh token. */
export async function establishSession(idToken: string, refreshToken: string): Promise<Session | null> {
  let token: VerifiedIdToken
  try {
    token = await idTokenVerifier().verify(idToken)
  } catch (error) {
    if (!(error instanceof IdTokenError)) throw error
    console.warn('startSession: refused an ID token', { reason: error.reason })
    throw new Error(SESSION_REFUSED)
  }
  const session = await currentSession(token, idToken)
  if (!session) {
    clearSessionCookies()
    return null
  }
  // Every token change of one browser's sign-in re-posts the tokens: they stay one session, so
  // that sign-out ends every sealed cookie this browser was given.
  const sealed = getCookie(COOKIE.refresh)
  const current = sealed ? await openRefreshToken(sessionSecrets(), sealed) : null
  const sessionId = current?.uid === token.uid && !(await sessionEnded(current.sessionId)) ? current.sessionId : newSessionId()
  await writeCookies(idToken, token.uid, refreshToken, sessionId)
  return session
}

export interface RequestSession {
  session: Session
  /** The verified ID token, for reads on the user's behalf. */
  idToken: string
  /** The token's `iat` (seconds): what the edge read with one token is not served to the next. */
  issuedAt: number
}

// The root route and a page's loader both ask for the session: one request verifies it once.
const sessionOfRequest = new WeakMap<Request, Promise<RequestSession | null>>()

/**
 * The session of the current request: the ID token cookie if it is valid, else a new ID token
 * obtained with the sealed refresh token (and the cookies renewed). Anything unusable is cleared.
 */
export function readSession(): Promise<RequestSession | null> {
  const request = getRequest()
  let session = sessionOfRequest.get(request)
  if (!session) {
    session = readSessionOnce()
    sessionOfRequest.set(request, session)
  }
  return session
}

async function readSessionOnce(): Promise<RequestSession | null> {
  const idToken = getCookie(COOKIE.idToken)
  const sealed = getCookie(COOKIE.refresh)
  if (!idToken && !sealed) return null
  if (idToken) {
    try {
      const token = await idTokenVerifier().verify(idToken)
      const session = await currentSession(token, idToken)
      if (!session) {
        clearSessionCookies()
        return null
      }
      return { session, idToken, issuedAt: token.issuedAt }
    } catch (error) {
      if (!(error instanceof IdTokenError)) throw error
      // Google's keys could not be fetched: not the cookie's fault, so keep it for the next request.
      if (error.reason === 'jwks-unavailable') return null
    }
  }
  const session = sealed ? await refreshSession(sealed) : null
  if (!session) clearSessionCookies()
  return session
}

// The ID token cookie alone stays valid until it expires (at most an hour, as for a revocation:
// decision 0008); renewing it takes the sealed cookie, whose session must not have been ended.
async function refreshSession(sealed: string): Promise<RequestSession | null> {
  const config = serverConfig()
  const opened = await openRefreshToken(sessionSecrets(), sealed)
  if (!opened || (await sessionEnded(opened.sessionId))) return null
  const refreshed = await refreshIdToken({ apiKey: config.apiKey, authEmulatorHost: config.emulators?.auth }, opened.refreshToken)
  if (!refreshed || refreshed.uid !== opened.uid) return null
  const token = await idTokenVerifier().verify(refreshed.idToken)
  const session = await currentSession(token, refreshed.idToken)
  if (!session) return null
  await writeCookies(refreshed.idToken, token.uid, refreshed.refreshToken, opened.sessionId)
  return { session, idToken: refreshed.idToken, issuedAt: token.issuedAt }
}
