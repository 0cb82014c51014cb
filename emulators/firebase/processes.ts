// Runs firebase-tools in the foreground so that stopping it (Ctrl-C, kill) leaves no emulator behind.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessStat {
  pid: number
  ppid: number
  // R, S, D... or Z for an exited process not yet reaped by its parent.
  state: string
  // Start time since boot: tells a live process from a later one that reuses its pid.
  start: string
}

function readStat(pid: number): ProcessStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { pid, state: fields[0] ?? '', ppid: Number(fields[1]), start: fields[19] ?? '' }
  } catch {
    return null
  }
}

// Every descendant of `rootPid` (Linux /proc; empty elsewhere).
export function descendants(rootPid: number): ProcessStat[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  const children = new Map<number, ProcessStat[]>()
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(Number(entry))
    if (!stat) continue
    const list = children.get(stat.ppid) ?? []
    list.push(stat)
    children.set(stat.ppid, list)
  }
  const found: ProcessStat[] = []
  const queue = [rootPid]
  while (queue.length > 0) {
    const pid = queue.shift() as number
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      queue.push(child.pid)
    }
  }
  return found
}

// Signals `target` unless it is gone, a zombie, or its pid now belongs to another process.
function killIfSame(target: ProcessStat, signal: NodeJS.Signals): boolean {
  const now = readStat(target.pid)
  if (!now || now.state === 'Z' || now.start !== target.start) return false
  try {
    process.kill(target.pid, signal)
    return true
  } catch {
    return false
  }
}

export interface ForegroundOptions {
  cwd?: string
  env?: NodeJS.ProcessEnv
  // How long a clean shutdown may take before everything left is killed.
  graceMs?: number
  // Stop as if signalled when this process loses its parent: `npm run` passes a kill on to its
  // shell, which dies without passing it on to us.
  stopWithParent?: boolean
  // Aborting stops the child as SIGTERM would.
  signal?: AbortSignal
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }

// Resolves with the child's exit code (128 + signal number when it died of a signal). Signals sent
// to this process are passed on; firebase-tools then stops its emulators. Whatever the child
// started and left running is killed afterwards, by pid.
export function runForeground(argv: readonly string[], options: ForegroundOptions = {}): Promise<number> {
  const [command, ...args] = argv
  if (!command) return Promise.reject(new Error('runForeground: empty argv'))
  const graceMs = options.graceMs ?? 20_000
  const child: ChildProcess = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'inherit' })
  const rootPid = child.pid
  const known: ProcessStat[] = []
  let killTimer: NodeJS.Timeout | undefined

  const remember = (): void => {
    if (rootPid === undefined) return
    const seen = new Set(known.map((p) => `${p.pid}:${p.start}`))
    for (const p of descendants(rootPid)) if (!seen.has(`${p.pid}:${p.start}`)) known.push(p)
  }
  const killAll = (): void => {
    child.kill('SIGKILL')
    for (const p of known) killIfSame(p, 'SIGKILL')
  }
  const stop = (signal: NodeJS.Signals): void => {
    remember()
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    killTimer ??= setTimeout(() => {
      remember()
      killAll()
    }, graceMs)
  }
  const onAbort = (): void => stop('SIGTERM')
  const parent = process.ppid

  // The tree is only readable while the child lives: keep a fresh copy of it.
  const watch = setInterval(() => {
    remember()
    if (options.stopWithParent && process.ppid !== parent) stop('SIGTERM')
  }, 500)
  watch.unref()
  for (const signal of FORWARDED) process.on(signal, stop)
  options.signal?.addEventListener('abort', onAbort, { once: true })
  process.on('exit', killAll)
  if (options.signal?.aborted) onAbort()

  const cleanup = (): void => {
    clearInterval(watch)
    if (killTimer) clearTimeout(killTimer)
    for (const signal of FORWARDED) process.off(signal, stop)
    options.signal?.removeEventListener('abort', onAbort)
    process.off('exit', killAll)
  }

  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      cleanup()
      reject(error)
    })
    child.once('exit', (code, signal) => {
      cleanup()
      // Leftovers of an unclean stop (e.g. a second Ctrl-C): stop them too, politely first.
      const left = known.filter((p) => killIfSame(p, 'SIGTERM'))
      const result = exitCode(code, signal)
      if (left.length === 0) return resolve(result)
      setTimeout(() => {
        for (const p of left) killIfSame(p, 'SIGKILL')
        resolve(result)
      }, 2_000)
    })
  })
}

function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code
  return 128 + (signal ? (SIGNAL_NUMBERS[signal] ?? 1) : 1)
}
