// The lease and heartbeat state machine, with the clock faked: a job leased, extended by its
// holder's beats, back in the queue when the beats stop, failed after the last attempt; an agent
// online, degraded and offline as its last heartbeat ages.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { agentHealth, nextHeartbeatDelay, OFFLINE_AFTER_MS, ONLINE_WITHIN_MS, type Agent } from './agents.ts'
import {
  applyJobChange,
  expireLease,
  extendLease,
  LEASE_MS,
  leasable,
  leaseJob,
  MAX_ATTEMPTS,
  releaseAfterFailure,
  type ScanJob,
} from './scan-jobs.ts'

const job = (): ScanJob => ({
  id: 'job-1',
  company: 'acme',
  service: 'dast',
  profile: 'web-dast',
  scanner: 'wapiti',
  targets: ['http://127.0.0.1:8765/'],
  scope: [{ kind: 'ip', value: '127.0.0.1' }],
  locationId: 'local',
  state: 'queued',
  attempts: 0,
  maxAttempts: MAX_ATTEMPTS,
  leasedBy: null,
  leaseExpiresAt: null,
  createdAt: Date.now(),
  createdBy: 'analyst@sectest.example',
  source: 'analyst',
  dastKeyId: null,
  publishAtOnce: false,
  agentId: null,
  sealedInput: null,
  progress: null,
  scanId: null,
  error: null,
  finishedAt: null,
})

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(Date.UTC(2026, 10, 24, 12))
})
afterEach(() => vi.useRealTimers())

describe('job leases', () => {
  it('leases a queued job to one agent; nobody else takes it while the lease holds', () => {
    const leased = applyJobChange(job(), leaseJob(job(), 'agent-a', Date.now()))
    expect(leased).toMatchObject({ state: 'leased', leasedBy: 'agent-a', attempts: 1, leaseExpiresAt: Date.now() + LEASE_MS })
    vi.advanceTimersByTime(LEASE_MS - 1)
    expect(leasable(leased, Date.now())).toBe(false)
    expect(() => leaseJob(leased, 'agent-b', Date.now())).toThrow(/leased/)
  })

  it('keeps the lease while the holder beats, and only for the holder', () => {
    let current = applyJobChange(job(), leaseJob(job(), 'agent-a', Date.now()))
    for (let beat = 0; beat < 10; beat++) {
      vi.advanceTimersByTime(15_000)
      expect(extendLease(current, 'agent-b', Date.now())).toBeNull()
      current = applyJobChange(current, extendLease(current, 'agent-a', Date.now())!)
      expect(expireLease(current, Date.now())).toBeNull()
    }
    expect(current.leaseExpiresAt).toBe(Date.now() + LEASE_MS)
  })

  it('puts the job back in the queue when the beats stop, and fails it after the last attempt', () => {
    let current = job()
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      current = applyJobChange(current, leaseJob(current, `agent-${attempt}`, Date.now()))
      vi.advanceTimersByTime(LEASE_MS - 1)
      expect(expireLease(current, Date.now())).toBeNull()
      vi.advanceTimersByTime(1)
      // A beat that comes after the lease ran out does not revive it.
      expect(extendLease(current, `agent-${attempt}`, Date.now())).toBeNull()
      current = applyJobChange(current, expireLease(current, Date.now())!)
      expect(current.attempts).toBe(attempt)
      expect(current.state).toBe(attempt < MAX_ATTEMPTS ? 'queued' : 'failed')
      expect(current.leasedBy).toBeNull()
    }
    expect(current.error).toMatch(/stopped answering \(attempt 3 of 3\)/)
    expect(current.finishedAt).toBe(Date.now())
    expect(leasable(current, Date.now())).toBe(false)
  })

  it('retries a job whose scanner failed while attempts remain', () => {
    const leased = applyJobChange(job(), leaseJob(job(), 'a', Date.now()))
    expect(releaseAfterFailure(leased, Date.now(), 'wapiti exited 1')).toMatchObject({ state: 'queued', error: 'wapiti exited 1' })
    const last = { ...leased, attempts: MAX_ATTEMPTS }
    expect(releaseAfterFailure(last, Date.now(), 'wapiti exited 1')).toMatchObject({ state: 'failed' })
  })
})

describe('agent health', () => {
  const agent = (): Pick<Agent, 'state' | 'lastHeartbeatAt' | 'problems' | 'publicKey'> => ({
    state: 'active',
    lastHeartbeatAt: Date.now(),
    problems: [],
    publicKey: { kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(43) },
  })

  it('goes from online to degraded to offline as the last heartbeat ages', () => {
    const a = agent()
    expect(agentHealth(a, Date.now())).toBe('online')
    vi.advanceTimersByTime(ONLINE_WITHIN_MS)
    expect(agentHealth(a, Date.now())).toBe('online')
    vi.advanceTimersByTime(1)
    expect(agentHealth(a, Date.now())).toBe('degraded')
    vi.advanceTimersByTime(OFFLINE_AFTER_MS - ONLINE_WITHIN_MS)
    expect(agentHealth(a, Date.now())).toBe('offline')
    expect(OFFLINE_AFTER_MS).toBeLessThanOrEqual(60_000)
  })

  it('is degraded with a reported problem, disabled when disabled or its key was rotated, offline before its first beat', () => {
    expect(agentHealth({ ...agent(), problems: ['testssl not found'] }, Date.now())).toBe('degraded')
    expect(agentHealth({ ...agent(), state: 'disabled' }, Date.now())).toBe('disabled')
    expect(agentHealth({ ...agent(), publicKey: null }, Date.now())).toBe('disabled')
    expect(agentHealth({ ...agent(), lastHeartbeatAt: null }, Date.now())).toBe('offline')
  })

  it('spreads heartbeats by at most a fifth of the interval either way', () => {
    expect(nextHeartbeatDelay(0, 15_000)).toBe(12_000)
    expect(nextHeartbeatDelay(0.5, 15_000)).toBe(15_000)
    expect(nextHeartbeatDelay(0.999_999, 15_000)).toBe(18_000)
  })
})
