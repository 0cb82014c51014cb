import type { CallableRequest } from 'firebase-functions/v2/https'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mayRequestSearchCredentials } from '#domain/access.ts'
import { CALLABLE_NAMES } from '#domain/callables.ts'
import { admitCaller, defineCallable } from './define-callable.ts'
import * as exported from './index.ts'

const AUTH_TIME = 1_750_000_000

// The Auth user's custom claims now (null: no such user), as the Admin SDK gives them.
const auth = vi.hoisted(() => ({ claims: {} as Record<string, unknown> | null }))
vi.mock('./admin.ts', () => ({
  adminAuth: () => ({
    getUser: async () => {
      if (auth.claims === null) throw Object.assign(new Error('no user'), { code: 'auth/user-not-found' })
      return { customClaims: auth.claims }
    },
  }),
}))
beforeEach(() => {
  auth.claims = {}
})

function request(token: Record<string, unknown> | null, data: unknown = null): CallableRequest<unknown> {
  const auth = token && { uid: 'uid-1', token: { auth_time: AUTH_TIME, ...token } }
  return { data, auth, rawRequest: {} } as unknown as CallableRequest<unknown>
}

const senior = { email: 'senior@sectest.example', accessLevel: 7, userType: 'analyst' }

describe('admitCaller', () => {
  it('gives the caller and the access of their claims', () => {
    expect(admitCaller(request(senior), mayRequestSearchCredentials)).toMatchObject({
      uid: 'uid-1',
      email: 'senior@sectest.example',
      access: { accessLevel: 7, userType: 'analyst' },
    })
  })

  it('refuses the signed-out as unauthenticated, and a revoked sign-in too, whoever may call', () => {
    for (const who of ['signed-in', () => true] as const) {
      expect(() => admitCaller(request(null), who)).toThrow(expect.objectContaining({ code: 'unauthenticated' }))
      const revoked = request({ accessLevel: 9, userType: 'analyst', revoked: AUTH_TIME })
      expect(() => admitCaller(revoked, who)).toThrow(expect.objectContaining({ code: 'unauthenticated' }))
      // A sign-in after the revocation counts.
      expect(admitCaller(request({ accessLevel: 9, userType: 'analyst', revoked: AUTH_TIME - 1 }), who)?.uid).toBe('uid-1')
    }
  })

  it('lets any valid sign-in through when no level is needed', () => {
    expect(admitCaller(request({}), 'signed-in')).toMatchObject({ uid: 'uid-1', access: { accessLevel: null, userType: null } })
  })

  it('asks nothing of public callers, and gives no caller for a revoked sign-in', () => {
    expect(admitCaller(request(null), 'public')).toBeNull()
    expect(admitCaller(request({ revoked: AUTH_TIME }), 'public')).toBeNull()
    expect(admitCaller(request(senior), 'public')?.uid).toBe('uid-1')
  })

  it('refuses what the rule refuses, reading claims of the wrong type as none', () => {
    for (const claims of [
      { accessLevel: 5, userType: 'analyst' },
      { accessLevel: '9', userType: 'analyst' },
      { accessLevel: 9, userType: 'admin' },
    ]) {
      expect(() => admitCaller(request(claims), mayRequestSearchCredentials)).toThrow(
        expect.objectContaining({ code: 'permission-denied' }),
      )
    }
  })
})

describe('defineCallable', () => {
  const answer = { success: true as const, searchKey: 'key', appId: 'app' }

  it('hands the handler the caller and the parsed request, and returns its answer', async () => {
    const seen: unknown[] = []
    const callable = defineCallable('getSearchClient', {}, (caller, data) => {
      seen.push(caller.uid, data)
      return answer
    })
    expect(await callable.run(request(senior, { type: 'search' }))).toEqual(answer)
    expect(seen).toEqual(['uid-1', { type: 'search' }])
  })

  it('refuses a request its schema refuses with the first issue, before the handler runs', async () => {
    let ran = false
    const callable = defineCallable('getSearchClient', {}, () => {
      ran = true
      return answer
    })
    await expect(callable.run(request(senior, { type: 'admin' }))).rejects.toMatchObject({
      code: 'invalid-argument',
      message: 'Ask for a search client with type "search" or "findings"',
    })
    // Search keys need a level; a sign-in without one is refused before the handler.
    await expect(callable.run(request({ userType: 'client' }, { type: 'search' }))).rejects.toMatchObject({
      code: 'permission-denied',
    })
    expect(ran).toBe(false)
  })

  it('refuses a token minted before a revocation the Auth user now records, though the token does not say so', async () => {
    let ran = false
    const callable = defineCallable('getSearchClient', {}, () => {
      ran = true
      return answer
    })
    auth.claims = { ...senior, revoked: AUTH_TIME }
    await expect(callable.run(request(senior, { type: 'search' }))).rejects.toMatchObject({ code: 'unauthenticated' })
    auth.claims = null
    await expect(callable.run(request(senior, { type: 'search' }))).rejects.toMatchObject({ code: 'unauthenticated' })
    expect(ran).toBe(false)
    // A sign-in after the revocation counts.
    auth.claims = { ...senior, revoked: AUTH_TIME - 1 }
    expect(await callable.run(request(senior, { type: 'search' }))).toEqual(answer)
  })

  it('fails an answer that breaks the contract as internal', async () => {
    const callable = defineCallable('getSearchClient', {}, () => ({ ...answer, searchKey: '' }))
    await expect(callable.run(request(senior, { type: 'search' }))).rejects.toMatchObject({ code: 'internal' })
  })
})

describe('the exported callables', () => {
  const callables = Object.entries(exported).filter(([, value]) => '__endpoint' in value && 'callableTrigger' in value.__endpoint)

  it('are exactly the registry, each defined under its own name', () => {
    expect(callables.map(([name]) => name).sort()).toEqual([...CALLABLE_NAMES].sort())
    for (const [name, callable] of callables) expect('callableName' in callable && callable.callableName).toBe(name)
  })
})
