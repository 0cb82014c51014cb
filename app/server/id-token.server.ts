// Verifies Firebase ID tokens at the edge. Runs in workerd and Node: Web APIs and jose only,
// and no relative imports so Node's type stripping can load it from benchmarks.
import { decodeProtectedHeader, errors, importJWK, jwtVerify, UnsecuredJWT } from 'jose'
import type { JWK, JWTPayload } from 'jose'

export const GOOGLE_SECURETOKEN_JWKS_URL = 'https://www.googleapis.com/robot/v1/metadata/jwk/securetoken@system.gserviceaccount.com'

export interface VerifiedIdToken {
  uid: string
  email?: string
  emailVerified: boolean
  /** Seconds since the epoch, as in the token. */
  authTime: number
  issuedAt: number
  expiresAt: number
  /** The whole payload, custom claims included (accessLevel, userType, revoked, synced). */
  claims: Record<string, unknown>
}

export type IdTokenErrorReason =
  | 'missing'
  | 'malformed'
  | 'algorithm'
  | 'signature'
  | 'unknown-key'
  | 'expired'
  | 'issued-in-future'
  | 'auth-time-in-future'
  | 'audience'
  | 'issuer'
  | 'subject'
  | 'jwks-unavailable'

export class IdTokenError extends Error {
  readonly reason: IdTokenErrorReason

  constructor(reason: IdTokenErrorReason, message?: string, options?: ErrorOptions) {
    super(message ?? `ID token rejected: ${reason}`, options)
    this.name = 'IdTokenError'
    this.reason = reason
  }
}

export interface IdTokenVerifierOptions {
  projectId: string
  /** Defaults to Google's securetoken JWKS. Also the cache key, so tests isolate by URL. */
  jwksUrl?: string
  /** Accept the Auth emulator's unsigned tokens. Only allowed for `demo-` projects. */
  emulator?: boolean
  fetch?: typeof fetch
  /** Milliseconds since the epoch. */
  now?: () => number
  /**
   * Tolerance for `iat` and `auth_time` only; `exp` gets none. Both clocks are NTP-synced
   * servers (Google's token service, Cloudflare's edge), so 30 s covers real drift while
   * keeping a forged-future window short.
   */
  clockSkewSeconds?: number
}

export interface IdTokenVerifier {
  verify(token: string | null | undefined): Promise<VerifiedIdToken>
}

const DEFAULT_CLOCK_SKEW_SECONDS = 30
// Used when the JWKS response carries no max-age; Google rotates keys over days.
const FALLBACK_MAX_AGE_SECONDS = 60 * 60
// A bad header must not pin keys for longer than this.
const MAX_MAX_AGE_SECONDS = 24 * 60 * 60
// At most one refetch per URL for unknown kids in this window, so random kids can't make us
// hammer Google. Google publishes new keys well before signing with them, so one is enough.
const UNKNOWN_KID_COOLDOWN_MS = 60_000
const JWKS_FETCH_TIMEOUT_MS = 5_000
// Real ID tokens are 1-2 KB; refuse to parse anything absurd.
const MAX_TOKEN_LENGTH = 16 * 1024
const MAX_SUB_LENGTH = 128

interface JwksEntry {
  keys: Map<string, CryptoKey>
  expiresAt: number
}

interface JwksState {
  entry?: JwksEntry
  inflight?: Promise<JwksEntry>
  lastUnknownKidRefetchAt?: number
  /** After a failed fetch, none is tried before this time (a negative cache, doubling up to a limit). */
  retryAt?: number
  backoffMs?: number
}

/** How long keys past their freshness still verify while Google's endpoint fails (stale-if-error). */
const STALE_IF_ERROR_MS = 6 * 60 * 60_000
const BACKOFF_FIRST_MS = 5_000
const BACKOFF_MAX_MS = 5 * 60_000
/** A response already older than its max-age (Age) is still kept this long, not refetched on every request. */
const MIN_FRESHNESS_SECONDS = 10

// Per isolate, shared by every verifier that uses the same URL.
const jwksStates = new Map<string, JwksState>()

export function createIdTokenVerifier(options: IdTokenVerifierOptions): IdTokenVerifier {
  const { projectId } = options
  if (typeof projectId !== 'string' || projectId.trim() === '') {
    throw new Error('createIdTokenVerifier: projectId is required')
  }
  const emulator = options.emulator === true
  if (emulator && !projectId.startsWith('demo-')) {
    throw new Error(
      `createIdTokenVerifier: emulator mode accepts unsigned tokens and is only allowed for demo- projects, not "${projectId}"`,
    )
  }
  const skew = options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS
  if (!Number.isFinite(skew) || skew < 0 || skew > 300) {
    throw new Error('createIdTokenVerifier: clockSkewSeconds must be between 0 and 300')
  }
  const jwksUrl = options.jwksUrl ?? GOOGLE_SECURETOKEN_JWKS_URL
  // Wrapped so workerd never sees fetch called with a foreign `this`.
  const fetchImpl: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const now = options.now ?? Date.now
  const issuer = `https://securetoken.google.com/${projectId}`

  let state = jwksStates.get(jwksUrl)
  if (!state) {
    state = {}
    jwksStates.set(jwksUrl, state)
  }
  const jwks = state

  function load(): Promise<JwksEntry> {
    if (jwks.inflight) return jwks.inflight
    const pending = (async () => {
      try {
        const entry = await fetchJwks(jwksUrl, fetchImpl, now)
        jwks.entry = entry
        jwks.retryAt = undefined
        jwks.backoffMs = undefined
        return entry
      } catch (error) {
        jwks.backoffMs = Math.min((jwks.backoffMs ?? BACKOFF_FIRST_MS / 2) * 2, BACKOFF_MAX_MS)
        jwks.retryAt = now() + jwks.backoffMs
        throw error
      } finally {
        jwks.inflight = undefined
      }
    })()
    jwks.inflight = pending
    return pending
  }

  // Fresh keys, else fetched ones; while the endpoint fails, keys past their freshness for a
  // bounded time, and no new fetch before the backoff ends.
  async function currentKeys(): Promise<JwksEntry> {
    const entry = jwks.entry
    const stale = entry && now() < entry.expiresAt + STALE_IF_ERROR_MS ? entry : undefined
    if (jwks.retryAt !== undefined && now() < jwks.retryAt) {
      if (stale) return stale
      throw new IdTokenError('jwks-unavailable', 'JWKS fetch failed recently')
    }
    try {
      return await load()
    } catch (error) {
      if (stale) return stale
      throw error
    }
  }

  // No await before the refetch decision, so concurrent misses share one fetch.
  async function keyFor(kid: string): Promise<CryptoKey> {
    let entry = jwks.entry
    let fetchedHere = false
    if (!entry || now() >= entry.expiresAt) {
      entry = await currentKeys()
      fetchedHere = true
    }
    const key = entry.keys.get(kid)
    if (key) return key
    if (jwks.inflight) {
      const next = await jwks.inflight
      const found = next.keys.get(kid)
      if (found) return found
      throw unknownKey()
    }
    if (fetchedHere) throw unknownKey()
    const last = jwks.lastUnknownKidRefetchAt
    if (last !== undefined && now() - last < UNKNOWN_KID_COOLDOWN_MS) throw unknownKey()
    jwks.lastUnknownKidRefetchAt = now()
    const refreshed = await load()
    const found = refreshed.keys.get(kid)
    if (found) return found
    throw unknownKey()
  }

  function checkClaims(payload: JWTPayload): VerifiedIdToken {
    const nowSeconds = Math.floor(now() / 1000)
    const { exp, iat, sub } = payload
    const authTime = payload.auth_time
    if (!isNumericDate(exp) || !isNumericDate(iat) || !isNumericDate(authTime)) {
      throw new IdTokenError('malformed', 'ID token lacks exp, iat or auth_time')
    }
    if (exp <= nowSeconds) throw new IdTokenError('expired')
    if (iat > nowSeconds + skew) throw new IdTokenError('issued-in-future')
    if (authTime > nowSeconds + skew) throw new IdTokenError('auth-time-in-future')
    if (payload.aud !== projectId) throw new IdTokenError('audience')
    if (payload.iss !== issuer) throw new IdTokenError('issuer')
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUB_LENGTH) {
      throw new IdTokenError('subject')
    }
    return {
      uid: sub,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      emailVerified: payload.email_verified === true,
      authTime,
      issuedAt: iat,
      expiresAt: exp,
      claims: payload as Record<string, unknown>,
    }
  }

  async function verify(token: string | null | undefined): Promise<VerifiedIdToken> {
    if (token === null || token === undefined || token === '') throw new IdTokenError('missing')
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) {
      throw new IdTokenError('malformed')
    }
    let header: ReturnType<typeof decodeProtectedHeader>
    try {
      header = decodeProtectedHeader(token)
    } catch (cause) {
      throw new IdTokenError('malformed', 'ID token header is not readable', { cause })
    }

    if (header.alg === 'none' && emulator) {
      let payload: JWTPayload
      try {
        payload = UnsecuredJWT.decode(token, { currentDate: new Date(now()) }).payload
      } catch (cause) {
        throw fromJose(cause)
      }
      return checkClaims(payload)
    }
    // Checked before any key is touched: HS256 with the RSA public key as secret, or none.
    if (header.alg !== 'RS256') throw new IdTokenError('algorithm', `ID token algorithm not allowed: ${String(header.alg)}`)
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw new IdTokenError('malformed', 'ID token header has no kid')
    }

    const key = await keyFor(header.kid)
    let payload: JWTPayload
    try {
      payload = (await jwtVerify(token, key, { algorithms: ['RS256'], currentDate: new Date(now()) })).payload
    } catch (cause) {
      throw fromJose(cause)
    }
    return checkClaims(payload)
  }

  return { verify }
}

function unknownKey(): IdTokenError {
  return new IdTokenError('unknown-key', 'ID token signed by a key not in the JWKS')
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

function fromJose(cause: unknown): IdTokenError {
  if (cause instanceof errors.JWSSignatureVerificationFailed) return new IdTokenError('signature', undefined, { cause })
  if (cause instanceof errors.JOSEAlgNotAllowed) return new IdTokenError('algorithm', undefined, { cause })
  if (cause instanceof errors.JWTExpired) return new IdTokenError('expired', undefined, { cause })
  if (cause instanceof errors.JWTClaimValidationFailed) {
    if (cause.claim === 'iss') return new IdTokenError('issuer', undefined, { cause })
    if (cause.claim === 'aud') return new IdTokenError('audience', undefined, { cause })
    if (cause.claim === 'sub') return new IdTokenError('subject', undefined, { cause })
  }
  return new IdTokenError('malformed', undefined, { cause })
}

async function fetchJwks(url: string, fetchImpl: typeof fetch, now: () => number): Promise<JwksEntry> {
  let response: Response
  try {
    response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS),
    })
  } catch (cause) {
    throw new IdTokenError('jwks-unavailable', 'JWKS fetch failed', { cause })
  }
  if (!response.ok) {
    throw new IdTokenError('jwks-unavailable', `JWKS fetch failed with HTTP ${response.status}`)
  }
  let body: unknown
  try {
    body = await response.json()
  } catch (cause) {
    throw new IdTokenError('jwks-unavailable', 'JWKS response is not JSON', { cause })
  }
  const list = (body as { keys?: unknown } | null)?.keys
  if (!Array.isArray(list)) throw new IdTokenError('jwks-unavailable', 'JWKS response has no keys')

  const keys = new Map<string, CryptoKey>()
  for (const jwk of list as JWK[]) {
    if (!jwk || typeof jwk !== 'object' || jwk.kty !== 'RSA' || typeof jwk.kid !== 'string') continue
    if (jwk.alg !== undefined && jwk.alg !== 'RS256') continue
    if (jwk.use !== undefined && jwk.use !== 'sig') continue
    try {
      const key = await importJWK(jwk, 'RS256')
      if (key instanceof Uint8Array) continue
      keys.set(jwk.kid, key)
    } catch {
      // One unusable key must not take the others down.
    }
  }
  if (keys.size === 0) throw new IdTokenError('jwks-unavailable', 'JWKS has no usable RS256 keys')

  return { keys, expiresAt: now() + freshnessSeconds(response.headers) * 1000 }
}

// Freshness per RFC 9111: max-age minus Age (a CDN may have held the response already).
function freshnessSeconds(headers: Headers): number {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(headers.get('cache-control') ?? '')
  if (!match?.[1]) return FALLBACK_MAX_AGE_SECONDS
  const age = Number.parseInt(headers.get('age') ?? '0', 10)
  const seconds = Number.parseInt(match[1], 10) - (Number.isFinite(age) && age > 0 ? age : 0)
  return Math.min(Math.max(seconds, MIN_FRESHNESS_SECONDS), MAX_MAX_AGE_SECONDS)
}
