import type { CallableRequest } from 'firebase-functions/v2/https'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mayRequestSearchCredentials } from '#domain/access.ts'
import { CALLABLE_NAMES, callableMessages } from '#domain/callables.ts'
import { CHECK_EVERY_MS, CHECK_TIMEOUT_MS, failAbandonedWrites, FIRST_CHECK_MS } from './database-reach.ts'
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

describe('defineCallable while the database is out of reach', () => {
  const answer = { success: true as const, searchKey: 'key', appId: 'app' }
  const unreachable = { code: 'unavailable', message: callableMessages.databaseUnreachable }

  // The database's host as the check sees it: answering, or taking the connection and saying nothing.
  const host = { answers: true }
  beforeEach(() => {
    host.answers = true
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: { signal: AbortSignal }) =>
          new Promise((resolve, reject) => {
            if (host.answers) resolve(new Response('Ok'))
            else init.signal.addEventListener('abort', () => reject(init.signal.reason))
          }),
      ),
    )
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('answers unavailable, in words, when the Admin SDK gives up on the database', async () => {
    for (const [code, text] of [
      [14, '14 UNAVAILABLE: No connection established'],
      [4, '4 DEADLINE_EXCEEDED: Deadline exceeded after 60.002s'],
    ] as const) {
      const callable = defineCallable('getSearchClient', {}, () => {
        throw Object.assign(new Error(text), { code })
      })
      await expect(callable.run(request(senior, { type: 'search' }))).rejects.toMatchObject(unreachable)
    }
  })

  // A Firestore request as grpc-js is about to make it.
  const firestoreRequest = (method: string) => ({
    methodDefinition: { path: `/google.firestore.v1.Firestore/${method}` },
    callOptions: { deadline: Infinity },
  })

  it('answers unavailable once the host stops answering, and the abandoned work writes nothing more', async () => {
    let release = () => {}
    const later: unknown[] = []
    const callable = defineCallable('getSearchClient', {}, async () => {
      // A read queued for a server that went away; once it returns, a transaction's next read, its commit and its rollback.
      await new Promise<void>((resolve) => (release = resolve))
      for (const method of ['BatchGetDocuments', 'Commit', 'Rollback'])
        later.push(failAbandonedWrites(firestoreRequest(method)).callOptions)
      return answer
    })
    host.answers = false
    const answered = callable.run(request(senior, { type: 'search' }))
    const outcome = expect(answered).rejects.toMatchObject(unreachable)
    await vi.advanceTimersByTimeAsync(FIRST_CHECK_MS + CHECK_TIMEOUT_MS)
    await outcome

    release()
    await vi.advanceTimersByTimeAsync(0)
    // Only the commit fails, unsent: the read and the rollback go, so the transaction frees its locks.
    expect(later).toEqual([{ deadline: Infinity }, { deadline: Date.now() }, { deadline: Infinity }])
  })

  it('lets slow work finish while the host answers, its requests untouched', async () => {
    const sent: unknown[] = []
    const callable = defineCallable('getSearchClient', {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 4 * CHECK_EVERY_MS))
      sent.push(failAbandonedWrites(firestoreRequest('Commit')).callOptions)
      return answer
    })
    const answered = callable.run(request(senior, { type: 'search' }))
    await vi.advanceTimersByTimeAsync(4 * CHECK_EVERY_MS)
    expect(await answered).toEqual(answer)
    expect(sent).toEqual([{ deadline: Infinity }])
  })
})

describe('the exported callables', () => {
  const callables = Object.entries(exported).filter(([, value]) => '__endpoint' in value && 'callableTrigger' in value.__endpoint)

  it('are exactly the registry, each defined under its own name', () => {
    expect(callables.map(([name]) => name).sort()).toEqual([...CALLABLE_NAMES].sort())
    for (const [name, callable] of callables) expect('callableName' in callable && callable.callableName).toBe(name)
  })
})
