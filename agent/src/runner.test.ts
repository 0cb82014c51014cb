// The agent's loop with fake timers and a fake server: beats spread around the interval, a lease
// asked for while idle, progress reported while a job runs, the scanner stopped when the server
// takes the job back, and targets refused before any scanner starts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { JobSpec } from '#domain/agent-api.ts'
import { HEARTBEAT_INTERVAL_MS } from '#domain/agents.ts'
import { AgentRunner, POLL_MS, PROGRESS_MS, type RunnerDeps } from './runner.ts'
import { TargetGuard } from './scope.ts'

const job: JobSpec = {
  id: 'job-1',
  profile: 'web-dast',
  targets: ['http://127.0.0.1:8765/'],
  scope: [{ kind: 'ip', value: '127.0.0.1' }],
  maxRunMs: 60_000,
  maxOutputBytes: 1_000_000,
  leaseExpiresAt: 0,
}

function fakeServer(jobs: (JobSpec | null)[]) {
  const beats: number[] = []
  const stop: string[] = []
  const client: RunnerDeps['client'] = {
    heartbeat: vi.fn(async (beat) => {
      beats.push(Date.now())
      return { heartbeatMs: HEARTBEAT_INTERVAL_MS, stop: beat.runningJobs.filter((id: string) => stop.includes(id)) }
    }),
    lease: vi.fn(async () => ({ job: jobs.shift() ?? null })),
    progress: vi.fn(async () => ({ leaseExpiresAt: Date.now() + 45_000 })),
    result: vi.fn(async (_id, result) => ({ state: result.outcome === 'succeeded' ? 'succeeded' : 'queued', scanId: 'scan-1' })),
  }
  return { client, beats, stop }
}

// The job's guard as the agent makes it, with no name to resolve: the job's targets are addresses.
const allow: RunnerDeps['guardFor'] = (spec) => new TargetGuard(spec.scope, { loopbackOnly: true, resolve: async () => [] })

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('AgentRunner', () => {
  it('beats at the interval spread by the jitter, and asks for work while idle', async () => {
    const server = fakeServer([])
    let n = 0
    const runner = new AgentRunner({
      client: server.client,
      scanners: [],
      problems: [],
      guardFor: allow,
      runJob: vi.fn(),
      log: () => {},
      random: () => [0, 0.75][n++ % 2]!,
    })
    runner.start()
    await vi.advanceTimersByTimeAsync(60_000)
    runner.stop()
    const gaps = server.beats.slice(1).map((t, i) => t - server.beats[i]!)
    expect(gaps.slice(0, 3)).toEqual([12_000, 16_500, 12_000])
    expect(vi.mocked(server.client.lease).mock.calls.length).toBeGreaterThanOrEqual(Math.floor(60_000 / POLL_MS))
  })

  it('runs a leased job, reports progress while it runs, and uploads the output', async () => {
    const server = fakeServer([job])
    const runJob = vi.fn(
      (_job: JobSpec, _guard: TargetGuard, _signal: AbortSignal, onRun: (t: string) => void) =>
        new Promise<string[]>((resolve) => {
          onRun(job.targets[0]!)
          setTimeout(() => resolve(['{"report":1}']), 35_000)
        }),
    )
    const runner = new AgentRunner({ client: server.client, scanners: [], problems: [], guardFor: allow, runJob, log: () => {} })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    expect(runner.runningJob).toBe('job-1')
    await vi.advanceTimersByTimeAsync(35_000)
    expect(vi.mocked(server.client.progress).mock.calls.length).toBeGreaterThanOrEqual(1 + Math.floor(35_000 / PROGRESS_MS))
    expect(server.client.result).toHaveBeenCalledWith('job-1', expect.objectContaining({ outcome: 'succeeded', outputs: ['{"report":1}'] }))
    expect(runner.runningJob).toBeNull()
    runner.stop()
  })

  it('uploads a password audit derived on the agent as an audit, not as scanner output', async () => {
    const server = fakeServer([{ ...job, id: 'job-2', profile: 'password-audit', targets: [], scope: [] }])
    const audit = { format: 'ntds_potfile', findings: [] }
    const runner = new AgentRunner({
      client: server.client,
      scanners: [],
      problems: [],
      guardFor: allow,
      runJob: async () => ({ audit }),
      log: () => {},
    })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    expect(server.client.result).toHaveBeenCalledWith('job-2', expect.objectContaining({ outcome: 'audited', audit }))
    runner.stop()
  })

  it('stops the scanner when a heartbeat says the job was taken back, and sends no result', async () => {
    const server = fakeServer([job])
    let aborted = false
    const runJob = vi.fn(
      (_job: JobSpec, _guard: TargetGuard, signal: AbortSignal) =>
        new Promise<string[]>((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true
            reject(new Error('killed'))
          }),
        ),
    )
    const runner = new AgentRunner({ client: server.client, scanners: [], problems: [], guardFor: allow, runJob, log: () => {} })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    server.stop.push('job-1')
    await vi.advanceTimersByTimeAsync(HEARTBEAT_INTERVAL_MS * 1.3)
    expect(aborted).toBe(true)
    expect(server.client.result).not.toHaveBeenCalled()
    runner.stop()
  })

  it('refuses a target its guard refuses, before any scanner runs, and reports the failure', async () => {
    const server = fakeServer([{ ...job, targets: ['http://192.0.2.7/'], scope: [{ kind: 'cidr', value: '192.0.2.0/24' }] }])
    const runJob = vi.fn()
    const runner = new AgentRunner({ client: server.client, scanners: [], problems: [], guardFor: allow, runJob, log: () => {} })
    runner.start()
    await vi.advanceTimersByTimeAsync(1)
    expect(runJob).not.toHaveBeenCalled()
    expect(server.client.result).toHaveBeenCalledWith('job-1', {
      outcome: 'failed',
      error: expect.stringMatching(/^Refused to scan: .* is not a loopback address/),
      refused: true,
    })
    runner.stop()
  })
})
