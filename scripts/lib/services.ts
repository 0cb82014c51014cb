// Long-running parts of the local stack as child processes that can be stopped as a whole.
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'

export interface Service {
  name: string
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  /** Sends `signal` to the service, then kills everything it started if it is still up after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>
}

export interface ServiceOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Output goes to this file; the terminal stays for the launcher's own lines. */
  logFile: string
}

const running = new Set<number>()

// Each service leads its own process group, so a stop reaches workerd, java and anything else it
// spawned. Whatever is still around when this process exits is killed with it.
process.on('exit', () => {
  for (const pid of running) killGroup(pid, 'SIGKILL')
})

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // Already gone.
  }
}

export function startService(name: string, argv: readonly string[], options: ServiceOptions): Service {
  const [command, ...args] = argv
  if (!command) throw new Error(`${name}: nothing to run`)
  mkdirSync(path.dirname(options.logFile), { recursive: true })
  const log = createWriteStream(options.logFile, { flags: 'w' })
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.pipe(log, { end: false })
  child.stderr.pipe(log, { end: false })
  const pid = child.pid
  if (pid !== undefined) running.add(pid)

  const exited = new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(1))
    child.once('exit', (code) => {
      if (pid !== undefined) running.delete(pid)
      resolve(code)
    })
  })
  exited.then(() => log.end())

  return {
    name,
    exited,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (pid === undefined || !running.has(pid)) {
        if (pid !== undefined) killGroup(pid, 'SIGKILL')
        return
      }
      // The leader first, so it can shut its children down in order.
      try {
        process.kill(pid, signal)
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
      // Anything the leader left behind in its group.
      killGroup(pid, 'SIGKILL')
    },
  }
}

/** A problem the person running the stack can fix; its message is one line saying how. */
export class StackError extends Error {}

export async function assertPortFree(port: number, what: string, hint: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StackError(`Port ${port} (${what}) is in use: ${hint}`)
          : new StackError(`Cannot open port ${port} (${what}): ${error.code ?? error.message}`),
      ),
    )
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()))
  })
}

/** Resolves once `url` answers with any HTTP status; rejects after `timeoutMs` or when `failed` settles first. */
export async function waitForHttp(url: string, timeoutMs: number, failed?: Promise<unknown>): Promise<void> {
  let gaveUp = false
  failed?.then(() => (gaveUp = true))
  const deadline = Date.now() + timeoutMs
  while (!gaveUp && Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      await response.body?.cancel()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
  }
  throw new Error(`${url} did not answer`)
}
