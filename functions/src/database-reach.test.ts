// The HTTP functions' side of database reach; the callables' side is in define-callable.test.ts.
import type { Firestore } from 'firebase-admin/firestore'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { newDastKeyToken } from '#domain/dast-keys.ts'
import { handleAgentRequest } from './agents/agent-api.ts'
import { handleDastRequest } from './agents/dast-api.ts'
import { answerWithinDatabaseReach, CHECK_TIMEOUT_MS, FIRST_CHECK_MS, OUT_OF_REACH_ANSWER } from './database-reach.ts'

/** A Firestore whose every call fails as the Admin SDK's does once it gives up on the database. */
const unreachableDb = new Proxy({} as Firestore, {
  get: () => () => {
    throw Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 })
  },
})

describe('answerWithinDatabaseReach', () => {
  it('answers 503, in words, when the DAST API or the agents API meets a database out of reach', async () => {
    const scan = { method: 'GET', path: '/scans/abc', authorization: `Bearer ${newDastKeyToken().token}`, body: '' }
    expect(await answerWithinDatabaseReach(() => handleDastRequest(unreachableDb, scan, Date.now(), 'secret'))).toEqual(OUT_OF_REACH_ANSWER)
    // A request token naming its agent, whose record the API then reads.
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'bulwark-agent', kid: 'agent-1' })).toString('base64url')
    const heartbeat = { method: 'POST', path: '/heartbeat', authorization: `Agent ${header}.payload.signature`, body: '{}' }
    expect(await answerWithinDatabaseReach(() => handleAgentRequest(unreachableDb, heartbeat))).toEqual(OUT_OF_REACH_ANSWER)
    expect(OUT_OF_REACH_ANSWER.status).toBe(503)
  })

  it('passes the other failures and the answers on as they are', async () => {
    const noKey = await answerWithinDatabaseReach(() => handleDastRequest(unreachableDb, { method: 'GET', path: '/scans/abc', body: '' }))
    expect(noKey.status).toBe(401)
    await expect(answerWithinDatabaseReach(() => Promise.reject(new Error('a bug')))).rejects.toThrow('a bug')
  })

  describe('while the host does not answer', () => {
    beforeEach(() => {
      // The host takes the connection and says nothing.
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_url: string, init: { signal: AbortSignal }) =>
            new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason))),
        ),
      )
      vi.useFakeTimers()
    })
    afterEach(() => {
      vi.useRealTimers()
      vi.unstubAllGlobals()
    })

    it('answers 503 once the check gives up, though the work still waits', async () => {
      const answered = answerWithinDatabaseReach(() => new Promise<{ status: number; body: unknown }>(() => {}))
      await vi.advanceTimersByTimeAsync(FIRST_CHECK_MS + CHECK_TIMEOUT_MS)
      expect(await answered).toEqual(OUT_OF_REACH_ANSWER)
    })
  })
})
