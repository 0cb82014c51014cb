import { CompactEncrypt, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { newSessionId, openRefreshToken, sealRefreshToken } from './sealed-refresh-token.server'

const secret = 'a-secret-of-at-least-thirty-two-characters'
const secrets = { current: secret, previous: null }

describe('sealed refresh tokens', () => {
  it('open with the same secret, to the same user, token and session, and hide the token', async () => {
    const sid = newSessionId()
    const sealed = await sealRefreshToken(secrets, 'uid-1', 'refresh-token-value', 3600, sid)
    expect(sealed).not.toContain('refresh-token-value')
    expect(await openRefreshToken(secrets, sealed)).toEqual({
      uid: 'uid-1',
      refreshToken: 'refresh-token-value',
      sessionId: sid,
      expiresAt: expect.any(Number),
    })
  })

  it('do not open with another secret, when tampered with, or once expired', async () => {
    const sealed = await sealRefreshToken(secrets, 'uid-1', 'refresh-token-value', 3600, newSessionId())
    expect(await openRefreshToken({ current: `${secret}-other`, previous: null }, sealed)).toBeNull()
    const parts = sealed.split('.')
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA')
    expect(await openRefreshToken(secrets, parts.join('.'))).toBeNull()
    expect(await openRefreshToken(secrets, 'garbage')).toBeNull()
    const expired = await sealRefreshToken(secrets, 'uid-1', 'refresh-token-value', -10, newSessionId())
    expect(await openRefreshToken(secrets, expired)).toBeNull()
  })

  it('name their key by an id derived with HKDF, not the bare SHA-256 of the secret', async () => {
    const sealed = await sealRefreshToken(secrets, 'uid-1', 'rt', 3600, newSessionId())
    const { kid } = decodeProtectedHeader(sealed)
    expect(kid).toMatch(/^[\w-]{16}$/)
    // A cookie sealed the old way (key = SHA-256 of the secret, no key id) no longer opens.
    const legacyKey = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`refresh-token:${secret}`)))
    const now = Math.floor(Date.now() / 1000)
    const legacy = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ rt: 'rt', sid: 's', sub: 'uid-1', exp: now + 60 })))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(legacyKey)
    expect(await openRefreshToken(secrets, legacy)).toBeNull()
  })

  it('still open after a rotation while the old secret is kept as the previous one, and not after it is dropped', async () => {
    const sealed = await sealRefreshToken(secrets, 'uid-1', 'rt', 3600, newSessionId())
    const rotated = { current: 'a-brand-new-secret-of-thirty-two-characters', previous: secret }
    expect((await openRefreshToken(rotated, sealed))?.uid).toBe('uid-1')
    const resealed = await sealRefreshToken(rotated, 'uid-1', 'rt', 3600, newSessionId())
    expect(decodeProtectedHeader(resealed).kid).not.toBe(decodeProtectedHeader(sealed).kid)
    expect(await openRefreshToken({ current: rotated.current, previous: null }, sealed)).toBeNull()
    expect((await openRefreshToken({ current: rotated.current, previous: null }, resealed))?.uid).toBe('uid-1')
  })
})
