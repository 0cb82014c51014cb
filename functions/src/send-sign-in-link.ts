// sendSignInLink: mails a passwordless sign-in link to someone allowed to sign in. Sign-up is
// closed: the address must belong to an account with access, or match an email key. The answer
// is the same, and takes the same time, whether or not a link went out (decision 0020).
import type { Firestore } from 'firebase-admin/firestore'
import type { Auth, UserRecord } from 'firebase-admin/auth'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { signInMessages, type SignInResponse } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { adminAuth, adminDb } from './admin.ts'
import { callerIp } from './client-ip.ts'
import { appOrigins, mailConfig } from './config.ts'
import { findEmailKey } from './email-keys.ts'
import { sendMail } from './mailer.ts'
import { continueUrlFor } from './origins.ts'
import { defineCallable } from './define-callable.ts'
import { consumeRateLimits, type RateLimit } from './rate-limit.ts'
import { signInMail } from './sign-in-mail.ts'

const WINDOW_MS = 15 * 60_000
// Per address and network: a person retrying a few times. Per IP: an office behind one address.
// Per address (counted only for addresses that may sign in, never answered): the mails one
// person can be sent from many networks.
export const SIGN_IN_RATE_LIMITS = {
  addressFromIp: { kind: 'sign-in-address-ip', limit: 5, windowMs: WINDOW_MS },
  ip: { kind: 'sign-in-ip', limit: 30, windowMs: WINDOW_MS },
  address: { kind: 'sign-in-address', limit: 10, windowMs: WINDOW_MS },
} as const

const failure = (message: string): SignInResponse => ({ success: false, message })

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
}

// Logged instead of the error object itself: some errors carry the request that failed.
function errorSummary(error: unknown): Record<string, string | undefined> {
  return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), code: errorCode(error) }
}

async function userByEmail(auth: Auth, email: string): Promise<UserRecord | null> {
  try {
    return await auth.getUserByEmail(email)
  } catch (error) {
    if (errorCode(error) === 'auth/user-not-found') return null
    throw error
  }
}

// Whether the address may get a link. Nothing is created here: an address matching an email key
// gets its Auth account when the link is used (signInWithEmailLink), which the sign-up gate
// (gate-sign-up.ts) allows only for such addresses; handleSignIn then gives it access.
async function mayReceiveLink(auth: Auth, db: Firestore, email: string): Promise<boolean> {
  const user = await userByEmail(auth, email)
  if (user?.disabled) return false
  if (user && (await db.doc(userAccessPath(user.uid)).get()).exists) return true
  return (await findEmailKey(db, email)) !== null
}

/** How long every answer takes (ms), whoever asked: SIGN_IN_ANSWER_MS, else two seconds. */
export function answerDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env.SIGN_IN_ANSWER_MS ?? 2000)
  return Number.isInteger(ms) && ms >= 100 && ms <= 10_000 ? ms : 2000
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)))

interface LinkRequest {
  email: string
  continueUrl: string
  timeZone: string
  /** Unknown only behind the local emulator, when the caller sends no X-Forwarded-For. */
  ip: string | undefined
  requestedAt: Date
}

// Everything that depends on who the address is. Never throws. An address that may not sign in
// is answered exactly like one that may: the difference is only whether a mail goes out.
async function sendLink({ email, continueUrl, timeZone, ip, requestedAt }: LinkRequest): Promise<SignInResponse> {
  const db = adminDb()
  const auth = adminAuth()
  const now = requestedAt.getTime()
  try {
    // Counted for every request, eligible or not, so that the answer says nothing about the
    // address, and per address and network, so that a stranger cannot use up someone's sign-ins.
    const limits: RateLimit[] = [{ ...SIGN_IN_RATE_LIMITS.addressFromIp, key: `${email}\n${ip ?? ''}` }]
    if (ip) limits.push({ ...SIGN_IN_RATE_LIMITS.ip, key: ip })
    if (!(await consumeRateLimits(db, limits, now))) {
      logger.warn('sendSignInLink: rate limited', { domain: email.slice(email.indexOf('@')) })
      return failure(signInMessages.tooMany)
    }
    if (!(await mayReceiveLink(auth, db, email))) return { success: true, message: signInMessages.sent }
    // Across networks, a bound on the mails one address receives; over it, silently none.
    if (!(await consumeRateLimits(db, [{ ...SIGN_IN_RATE_LIMITS.address, key: email }], now))) {
      logger.warn('sendSignInLink: address over its limit, no mail sent', { domain: email.slice(email.indexOf('@')) })
      return { success: true, message: signInMessages.sent }
    }
  } catch (error) {
    logger.error('sendSignInLink: checking the request failed', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }

  try {
    const config = mailConfig()
    const link = await auth.generateSignInWithEmailLink(email, { url: continueUrl, handleCodeInApp: true })
    await sendMail(config, { to: email, ...signInMail({ link, email, requestedAt, timeZone }) })
  } catch (error) {
    logger.error('sendSignInLink: the link could not be sent', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }
  return { success: true, message: signInMessages.sent }
}

export const sendSignInLink = defineCallable('sendSignInLink', {}, async (_caller, { email, url, timeZone, next, via }, request) => {
  const requestedAt = new Date()
  const answerAt = requestedAt.getTime() + answerDelayMs()

  let origins: string[]
  try {
    origins = appOrigins()
  } catch (error) {
    logger.error('sendSignInLink: APP_ORIGINS is misconfigured', errorSummary(error))
    return failure(signInMessages.cannotSend)
  }
  const continueUrl = continueUrlFor(url, origins, next, via)
  if (!continueUrl) throw new HttpsError('invalid-argument', 'Invalid url')

  const ip = callerIp(request.rawRequest)

  // Every answer leaves at the same time after the request, so its timing does not tell an
  // address with an account (lookups, a link, SMTP) from one without (one lookup).
  const work = sendLink({ email, continueUrl, timeZone, ip, requestedAt })
  const first = await Promise.race([work, sleep(answerAt - Date.now()).then(() => null)])
  if (first === null) {
    // Slower than the fixed time: answer as for a sent link; the work finishes on its own and logs its failures.
    logger.warn('sendSignInLink: the work took longer than the answer time')
    return { success: true, message: signInMessages.sent }
  }
  await sleep(answerAt - Date.now())
  return first
})
