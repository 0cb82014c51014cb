import { randomUUID } from 'node:crypto'
import type { Firestore } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consumeRateLimits, RATE_LIMITS_COLLECTION, rateLimitId, type RateLimit } from '../../functions/src/rate-limit.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'

describe('consumeRateLimits', () => {
  let admin: AdminClients
  let db: Firestore

  beforeAll(() => {
    admin = connectToEmulators()
    db = admin.db
  })

  afterAll(async () => {
    await disconnect(admin)
  })

  const limitFor = (limit: number): RateLimit => ({ kind: 'test', key: randomUUID(), limit, windowMs: 60_000 })
  const stored = async (l: RateLimit) => (await db.collection(RATE_LIMITS_COLLECTION).doc(rateLimitId(l.kind, l.key)).get()).data()

  it('counts up to the limit, then refuses without counting', async () => {
    const limit = limitFor(3)
    const now = Date.now()
    for (let i = 0; i < 3; i += 1) expect(await consumeRateLimits(db, [limit], now + i)).toBe(true)
    expect(await consumeRateLimits(db, [limit], now + 10)).toBe(false)
    const data = await stored(limit)
    expect(data?.count).toBe(3)
    // Neither the key nor anything derived from it but the id is stored.
    expect(JSON.stringify(data)).not.toContain(limit.key)
  })

  it('opens a new window once the old one is over', async () => {
    const limit = limitFor(1)
    const now = Date.now()
    expect(await consumeRateLimits(db, [limit], now)).toBe(true)
    expect(await consumeRateLimits(db, [limit], now + 59_999)).toBe(false)
    expect(await consumeRateLimits(db, [limit], now + 60_000)).toBe(true)
    expect((await stored(limit))?.expiresAt.toMillis()).toBe(now + 120_000)
  })

  it('counts nothing when any of several limits is used up', async () => {
    const roomy = limitFor(10)
    const tight = limitFor(1)
    const now = Date.now()
    expect(await consumeRateLimits(db, [tight], now)).toBe(true)
    expect(await consumeRateLimits(db, [roomy, tight], now)).toBe(false)
    expect(await stored(roomy)).toBeUndefined()
  })

  it('serializes concurrent requests', async () => {
    const limit = limitFor(2)
    const now = Date.now()
    const results = await Promise.all(Array.from({ length: 4 }, () => consumeRateLimits(db, [limit], now)))
    expect(results.filter(Boolean)).toHaveLength(2)
    expect((await stored(limit))?.count).toBe(2)
  })
})
