// The agent's loop: a heartbeat every 15 s ± 20 % (the server may change the interval), a lease
// asked for whenever no job runs, progress reported while one does (each report extends the
// lease), and the job stopped as soon as the server says its lease is gone. Timers and the
// scanners are passed in, so the loop is tested with fake timers.
import { nextHeartbeatDelay, type Scanner } from '#domain/agents.ts'
import type { JobSpec } from '#domain/agent-api.ts'
import type { AgentClient } from './api-client.ts'
import { TargetRefused, type TargetGuard } from './scope.ts'

export const AGENT_VERSION = '1.0.0'
/** How often an idle agent asks for work, and how often a running job reports progress. */
export const POLL_MS = 3_000
export const PROGRESS_MS = 10_000

export interface RunnerDeps {
  client: Pick<AgentClient, 'heartbeat' | 'lease' | 'progress' | 'result'>
  scanners: Scanner[]
  problems: string[]
  /** A job's guard (scope.ts): it checks every target and pins the addresses the scanners may reach. */
  guardFor(job: JobSpec): TargetGuard
  /** The scanner's raw outputs, or a password audit derived here. */
  runJob(job: JobSpec, guard: TargetGuard, signal: AbortSignal, onRun: (target: string) => void): Promise<string[] | { audit: unknown }>
  log(line: string): void
  random?: () => number
}

export class AgentRunner {
  private heartbeatTimer: ReturnType<typeof setTimeout> | undefined
  private pollTimer: ReturnType<typeof setTimeout> | undefined
  private heartbeatMs: number | undefined
  private current: { job: JobSpec; abort: AbortController } | null = null
  private lastError: string | null = null
  private stopped = false

  private readonly deps: RunnerDeps

  constructor(deps: RunnerDeps) {
    this.deps = deps
  }

  start(): void {
    void this.beat()
    void this.poll()
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.heartbeatTimer)
    clearTimeout(this.pollTimer)
    this.current?.abort.abort()
  }

  get runningJob(): string | null {
    return this.current?.job.id ?? null
  }

  private scheduleBeat(): void {
    if (this.stopped) return
    this.heartbeatTimer = setTimeout(() => void this.beat(), nextHeartbeatDelay((this.deps.random ?? Math.random)(), this.heartbeatMs))
  }

  async beat(): Promise<void> {
    try {
      const answer = await this.deps.client.heartbeat({
        version: AGENT_VERSION,
        scanners: this.deps.scanners,
        problems: this.deps.problems,
        runningJobs: this.current ? [this.current.job.id] : [],
        lastError: this.lastError,
      })
      this.heartbeatMs = answer.heartbeatMs
      if (this.current && answer.stop.includes(this.current.job.id)) {
        this.deps.log(`job ${this.current.job.id}: the server took it back; stopping the scanner`)
        this.current.abort.abort()
      }
    } catch (error) {
      this.deps.log(`heartbeat failed: ${(error as Error).message}`)
    }
    this.scheduleBeat()
  }

  private schedulePoll(delay = POLL_MS): void {
    if (this.stopped) return
    this.pollTimer = setTimeout(() => void this.poll(), delay)
  }

  async poll(): Promise<void> {
    if (this.stopped || this.current) return
    try {
      const { job } = await this.deps.client.lease()
      if (job) {
        await this.run(job)
        return this.schedulePoll(0)
      }
    } catch (error) {
      this.deps.log(`asking for work failed: ${(error as Error).message}`)
    }
    this.schedulePoll()
  }

  private async run(job: JobSpec): Promise<void> {
    const abort = new AbortController()
    this.current = { job, abort }
    const started = Date.now()
    let phase = 'checking scope'
    let message = `Checking ${job.targets.length} targets against the scope`
    const report = () =>
      this.deps.client.progress(job.id, phase, message).catch((error: Error) => this.deps.log(`progress failed: ${error.message}`))
    const progress = setInterval(() => void report(), PROGRESS_MS)
    try {
      this.deps.log(`job ${job.id}: ${job.profile} of ${job.targets.join(', ')}`)
      await report()
      const guard = this.deps.guardFor(job)
      const checks = await Promise.all(job.targets.map((t) => guard.check(t)))
      const refused = checks.filter((c) => !c.allowed)
      if (refused.length) throw new TargetRefused(refused.map((c) => c.reason!))
      phase = 'scanning'
      // The scanners are handed each target in its canonical form, the one that was checked.
      const checked = { ...job, targets: checks.map((c) => c.target) }
      const outputs = await this.deps.runJob(checked, guard, abort.signal, (target) => {
        message = `Running ${job.profile} on ${target}`
        void report()
      })
      if (abort.signal.aborted) return
      phase = 'uploading'
      message = 'Uploading the output'
      const result = await this.deps.client.result(
        job.id,
        Array.isArray(outputs)
          ? { outcome: 'succeeded', outputs, resolved: await guard.pins(), startedAt: started, finishedAt: Date.now() }
          : { outcome: 'audited', audit: outputs.audit, startedAt: started, finishedAt: Date.now() },
      )
      this.lastError = null
      this.deps.log(`job ${job.id}: ${result.state}, draft scan ${result.scanId}`)
    } catch (error) {
      const reason = (error as Error).message.slice(0, 2_000)
      this.lastError = reason
      this.deps.log(`job ${job.id} failed: ${reason}`)
      // The same job would be refused again: the server fails it at once rather than retrying.
      const refused = error instanceof TargetRefused
      if (!abort.signal.aborted) await this.deps.client.result(job.id, { outcome: 'failed', error: reason, refused }).catch(() => {})
    } finally {
      clearInterval(progress)
      this.current = null
    }
  }
}
