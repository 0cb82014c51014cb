import { describe, expect, it } from 'vitest'
import type { VerifiedIdToken } from './id-token.server'
import { sessionFromToken } from './session.server'

const token = (claims: Record<string, unknown>, authTime = 1_000): VerifiedIdToken => ({
  uid: 'u1',
  email: 'ana@sectest.example',
  emailVerified: true,
  authTime,
  issuedAt: authTime,
  expiresAt: authTime + 3600,
  claims,
})

describe('sessionFromToken', () => {
  it('reads who the user is and their access from the token claims', () => {
    expect(sessionFromToken(token({ accessLevel: 7, userType: 'analyst' }))).toEqual({
      uid: 'u1',
      email: 'ana@sectest.example',
      userType: 'analyst',
      accessLevel: 7,
    })
  })

  it('gives no access until the first sign-in copied it into the token', () => {
    expect(sessionFromToken(token({}))).toMatchObject({ userType: 'client', accessLevel: 0 })
    expect(sessionFromToken(token({ accessLevel: '9', userType: 'admin' }))).toMatchObject({ userType: 'client', accessLevel: 0 })
  })

  it('refuses a sign-in made before an administrator revoked it, not one made after', () => {
    expect(sessionFromToken(token({ accessLevel: 1, revoked: 1_000 }, 1_000))).toBeNull()
    expect(sessionFromToken(token({ accessLevel: 1, revoked: 1_500 }, 1_000))).toBeNull()
    expect(sessionFromToken(token({ accessLevel: 1, revoked: 900 }, 1_000))).not.toBeNull()
  })
})
