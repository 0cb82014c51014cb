import { describe, expect, it } from 'vitest'
import { FirestoreReadDenied } from './firestore-rest'
import type { FirestoreReader } from './firestore-rest.server'
import { createRevocations } from './revocations.server'

const SIGNED_IN = 1_750_000_000

/** users_access as the rules let the user's token read it: a document, none, or a denial. */
function store(initial: Record<string, unknown> | null | 'denied') {
  const state = { document: initial, reads: 0, time: 0 }
  const reader = (): FirestoreReader => ({
    async get() {
      state.reads += 1
      if (state.document === 'denied') throw new FirestoreReadDenied('users_access')
      return state.document as Awaited<ReturnType<FirestoreReader['get']>>
    },
    getAll: async () => [],
    list: async () => [],
  })
  const revocations = createRevocations({ reader, now: () => state.time, ttlMs: 10_000 })
  return { state, revoked: () => revocations.revoked('u1', 'token', SIGNED_IN) }
}

const access = (revoked?: number) => ({ claims: { accessLevel: 7, userType: 'analyst', ...(revoked ? { revoked } : {}) }, companies: [] })

describe('revocations at the edge', () => {
  it('refuses a sign-in that users_access revoked after it, though the token does not say so', async () => {
    expect(await store(access((SIGNED_IN + 30) * 1000)).revoked()).toBe(true)
    expect(await store(access(SIGNED_IN * 1000)).revoked()).toBe(true)
    expect(await store(access((SIGNED_IN - 30) * 1000)).revoked()).toBe(false)
    expect(await store(access()).revoked()).toBe(false)
  })

  it('refuses a sign-in the rules no longer let read its own access', async () => {
    expect(await store('denied').revoked()).toBe(true)
  })

  it('reads users_access at most once per uid in the window, and again after it', async () => {
    const { state, revoked } = store(access())
    expect(await revoked()).toBe(false)
    state.document = access((SIGNED_IN + 30) * 1000)
    state.time = 9_999
    expect(await revoked()).toBe(false)
    expect(state.reads).toBe(1)
    // Within the window's length of the revocation, the session ends.
    state.time = 10_000
    expect(await revoked()).toBe(true)
    expect(state.reads).toBe(2)
  })
})
