import type { CallableRequest } from 'firebase-functions/v2/https'
// The caller's IP as the trusted front end saw it. X-Forwarded-For is a list the client may start
// itself; each proxy appends the address it received the request from, so only the entries the
// trusted hops wrote (counted from the right) can be believed. Express's `req.ip` (with
// `trust proxy` on, as the Functions framework sets it) is the left-most entry: the client's own.
export const DEFAULT_TRUSTED_HOPS = 1

export function trustedHops(env: NodeJS.ProcessEnv = process.env): number {
  const hops = Number(env.TRUSTED_PROXY_HOPS ?? DEFAULT_TRUSTED_HOPS)
  return Number.isInteger(hops) && hops >= 1 && hops <= 5 ? hops : DEFAULT_TRUSTED_HOPS
}

/** The entry `hops` from the right of X-Forwarded-For, else the socket's peer; undefined when neither is known. */
export function clientIp(
  forwardedFor: string | string[] | undefined,
  peer: string | undefined,
  hops = DEFAULT_TRUSTED_HOPS,
): string | undefined {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor
  const entries = (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length >= hops) return entries[entries.length - hops]
  return peer || undefined
}

/**
 * The caller's IP for the HTTP APIs the Worker forwards (/api/v1/dast): the Worker writes the
 * address Cloudflare saw as the one entry it sends, and the trusted front ends each append one
 * after it, so the caller is the entry one hop beyond them, never the left-most one a client may
 * have written. A call straight to the function's own URL can still name any address there: the
 * per-key limits do not depend on it.
 */
export const clientIpBehindWorker = (forwardedFor: string | string[] | undefined, peer: string | undefined, hops = DEFAULT_TRUSTED_HOPS) =>
  clientIp(forwardedFor, peer, hops + 1)

/** The caller's IP for a callable's request (see clientIp). */
export function callerIp(raw: CallableRequest<unknown>['rawRequest'] | undefined): string | undefined {
  if (!raw) return undefined
  return clientIp(raw.headers?.['x-forwarded-for'], raw.ip ?? raw.socket?.remoteAddress, trustedHops())
}
