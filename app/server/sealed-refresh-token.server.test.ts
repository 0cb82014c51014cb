import { describe, expect, it } from 'vitest'
import { openRefreshToken, sealRefreshToken } from './sealed-refresh-token.server'

const secret = 'a-secret-of-at-least-thirty-two-characters'

describe('sealed refresh tokens', () => {
  it('open with the same secret, to the same user and token, and hide the token', async () => {
    const sealed = await sealRefreshToken(secret, 'uid-1', 'refresh-token-value', 3600)
    expect(sealed).not.toContain('refresh-token-value')
    expect(await openRefreshToken(secret, sealed)).toEqual({ uid: 'uid-1', refreshToken: 'refresh-token-value' })
  })

  it('do not open with another secret, when tampered with, or once expired', async () => {
    const sealed = await sealRefreshToken(secret, 'uid-1', 'refresh-token-value', 3600)
    expect(await openRefreshToken(`${secret}-other`, sealed)).toBeNull()
    const parts = sealed.split('.')
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA')
    expect(await openRefreshToken(secret, parts.join('.'))).toBeNull()
    expect(await openRefreshToken(secret, 'garbage')).toBeNull()
    const expired = await sealRefreshToken(secret, 'uid-1', 'refresh-token-value', -10)
    expect(await openRefreshToken(secret, expired)).toBeNull()
  })
})
