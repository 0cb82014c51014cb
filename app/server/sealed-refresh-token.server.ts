import { base64url, decodeProtectedHeader, EncryptJWT, jwtDecrypt } from 'jose'

// The refresh token never reaches the cookie jar in clear: it is sealed (JWE, dir + A256GCM) with a
// key derived from the Worker's SESSION_SECRET by HKDF, bound to the user it belongs to, and named
// by a key id in the JWE header, so the secret can be rotated without signing everyone out: the
// previous secret still opens the cookies it sealed until they are renewed (decision 0020). Each
// sealed cookie carries a session id, which sign-out records as ended.

/** The secrets that open sealed cookies: `current` seals, `previous` (the one before a rotation) only opens. */
export interface SessionSecrets {
  current: string
  previous: string | null
}

interface SealingKey {
  kid: string
  key: Uint8Array
}

const encoder = new TextEncoder()
const SALT = encoder.encode('bulwark/session')

async function hkdf(secret: string, info: string, bits: number): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits'])
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: SALT, info: encoder.encode(info) }, ikm, bits),
  )
}

const derived = new Map<string, Promise<SealingKey>>()

/** The key and key id of one secret; the key id names the secret without revealing it. */
function sealingKey(secret: string): Promise<SealingKey> {
  let key = derived.get(secret)
  if (!key) {
    key = (async () => ({
      kid: base64url.encode(await hkdf(secret, 'bulwark/refresh-token/v1/kid', 96)),
      key: await hkdf(secret, 'bulwark/refresh-token/v1/key', 256),
    }))()
    derived.set(secret, key)
  }
  return key
}

/** A session id: 128 random bits, base64url. */
export const newSessionId = () => base64url.encode(crypto.getRandomValues(new Uint8Array(16)))

export async function sealRefreshToken(
  secrets: SessionSecrets,
  uid: string,
  refreshToken: string,
  maxAgeSeconds: number,
  sessionId: string,
): Promise<string> {
  const { kid, key } = await sealingKey(secrets.current)
  return new EncryptJWT({ rt: refreshToken, sid: sessionId })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid })
    .setSubject(uid)
    .setIssuedAt()
    .setExpirationTime(`${maxAgeSeconds}s`)
    .encrypt(key)
}

export interface OpenedRefreshToken {
  uid: string
  refreshToken: string
  sessionId: string
  /** When the sealed cookie expires (seconds since the epoch). */
  expiresAt: number
}

/** The refresh token, its user and session, or null when the value is not one we sealed (or it expired). */
export async function openRefreshToken(secrets: SessionSecrets, sealed: string): Promise<OpenedRefreshToken | null> {
  try {
    const { kid } = decodeProtectedHeader(sealed)
    const candidates = await Promise.all([secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map(sealingKey))
    const match = candidates.find((candidate) => candidate.kid === kid)
    if (!match) return null
    const { payload } = await jwtDecrypt(sealed, match.key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    })
    if (typeof payload.rt !== 'string' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null
    if (typeof payload.exp !== 'number') return null
    return { uid: payload.sub, refreshToken: payload.rt, sessionId: payload.sid, expiresAt: payload.exp }
  } catch {
    return null
  }
}
