// Who opens a vault link, from the callable's request: their sign-in if any, their address and browser.
import type { CallableRequest } from 'firebase-functions/v2/https'
import { browserOf } from '#domain/vault.ts'
import { callerIp } from '../client-ip.ts'
import type { Caller } from '../define-callable.ts'
import type { Requester } from './link-store.ts'

export function requesterOf(caller: Caller | null, request: CallableRequest<unknown>): Requester {
  const raw = request.rawRequest
  const ip = (callerIp(raw) ?? '').slice(0, 64)
  const ua = raw?.headers?.['user-agent']
  return {
    uid: caller?.uid ?? null,
    email: caller?.email ?? null,
    emailVerified: caller?.token.email_verified === true,
    ip,
    browser: browserOf(typeof ua === 'string' ? ua : null),
  }
}
