import type { CallableRequest } from 'firebase-functions/v2/https'
import { describe, expect, it } from 'vitest'
import { mayRequestSearchCredentials } from '#domain/access.ts'
import { authorizedCaller } from './caller.ts'

const AUTH_TIME = 1_750_000_000

function request(token: Record<string, unknown> | null): CallableRequest<unknown> {
  const auth = token && { uid: 'uid-1', token: { auth_time: AUTH_TIME, ...token } }
  return { data: null, auth, rawRequest: {} } as unknown as CallableRequest<unknown>
}

describe('authorizedCaller', () => {
  it('gives the caller and the access of their claims', () => {
    expect(authorizedCaller(request({ email: 'senior@sectest.example', accessLevel: 7, userType: 'analyst' }), mayRequestSearchCredentials)).toEqual({
      uid: 'uid-1',
      email: 'senior@sectest.example',
      access: { accessLevel: 7, userType: 'analyst' },
    })
  })

  it('refuses the signed-out as unauthenticated, and a revoked sign-in too', () => {
    expect(() => authorizedCaller(request(null), () => true)).toThrow(expect.objectContaining({ code: 'unauthenticated' }))
    const revoked = request({ accessLevel: 9, userType: 'analyst', revoked: AUTH_TIME })
    expect(() => authorizedCaller(revoked, () => true)).toThrow(expect.objectContaining({ code: 'unauthenticated' }))
    // A sign-in after the revocation counts.
    expect(authorizedCaller(request({ accessLevel: 9, userType: 'analyst', revoked: AUTH_TIME - 1 }), () => true).uid).toBe('uid-1')
  })

  it('refuses what the rule refuses, reading claims of the wrong type as none', () => {
    expect(() => authorizedCaller(request({ accessLevel: 5, userType: 'analyst' }), mayRequestSearchCredentials)).toThrow(
      expect.objectContaining({ code: 'permission-denied' }),
    )
    expect(() => authorizedCaller(request({ accessLevel: '9', userType: 'analyst' }), mayRequestSearchCredentials)).toThrow(
      expect.objectContaining({ code: 'permission-denied' }),
    )
    expect(() => authorizedCaller(request({ accessLevel: 9, userType: 'admin' }), mayRequestSearchCredentials)).toThrow(
      expect.objectContaining({ code: 'permission-denied' }),
    )
  })
})
