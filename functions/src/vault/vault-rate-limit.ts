// Limits on the public vault callables (vaultLinkInfo, claimVaultLink, vaultRequestInfo,
// submitVaultRequest), counted before any link is read: per link, so a leaked id cannot be
// hammered, and per address, so one machine cannot walk many links. Fixed windows in
// rate_limits (rate-limit.ts), keyed by hashes.
import { HttpsError } from 'firebase-functions/v2/https'
import type { Firestore } from 'firebase-admin/firestore'
import { consumeRateLimits, type RateLimit } from '../rate-limit.ts'

const WINDOW_MS = 10 * 60_000

export const VAULT_RATE_LIMITS = {
  // Ten recipients of a ten-view link each look and claim; a few wrong passphrases on top.
  link: { kind: 'vault-link', limit: 40, windowMs: WINDOW_MS },
  // An office behind one address opening many links.
  ip: { kind: 'vault-ip', limit: 300, windowMs: WINDOW_MS },
} as const

export const vaultRateLimitMessage = 'Too many attempts on this link: wait a few minutes and try again.'

/** The limits one call counts against; no per-address limit when the address is not known. */
export function vaultLimitsFor(id: string, ip: string): RateLimit[] {
  return [{ ...VAULT_RATE_LIMITS.link, key: id }, ...(ip ? [{ ...VAULT_RATE_LIMITS.ip, key: ip }] : [])]
}

/** Counts one public call; refuses it (resource-exhausted) once a limit is used up. */
export async function admitVaultCall(db: Firestore, id: string, ip: string, now = Date.now()): Promise<void> {
  if (!(await consumeRateLimits(db, vaultLimitsFor(id, ip), now))) throw new HttpsError('resource-exhausted', vaultRateLimitMessage)
}
