import { EncryptJWT, jwtDecrypt } from 'jose'

// The refresh token never reaches the cookie jar in clear: it is sealed (JWE, dir + A256GCM) with a
// key derived from the Worker's SESSION_SECRET, and bound to the user it belongs to.
async function keyFrom(secret: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`refresh-token:${secret}`)))
}

export async function sealRefreshToken(secret: string, uid: string, refreshToken: string, maxAgeSeconds: number): Promise<string> {
  return new EncryptJWT({ rt: refreshToken })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setSubject(uid)
    .setIssuedAt()
    .setExpirationTime(`${maxAgeSeconds}s`)
    .encrypt(await keyFrom(secret))
}

/** The refresh token and its user, or null when the value is not one we sealed (or it expired). */
export async function openRefreshToken(secret: string, sealed: string): Promise<{ uid: string; refreshToken: string } | null> {
  try {
    const { payload } = await jwtDecrypt(sealed, await keyFrom(secret), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    })
    if (typeof payload.rt !== 'string' || typeof payload.sub !== 'string') return null
    return { uid: payload.sub, refreshToken: payload.rt }
  } catch {
    return null
  }
}
