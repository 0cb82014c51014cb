// The scanners from Debian's packages that the agent finds on its host, and how it runs each one:
// no shell, a time limit (SIGKILL when it passes), an output limit, and a scratch directory
// removed afterwards. Each reaches only the addresses the job's guard pinned (decision 0034): nmap
// and testssl.sh are handed them, wapiti goes through the egress proxy.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Scanner, ScannerName } from '#domain/agents.ts'
import { targetHost } from '#domain/agent-scope.ts'
import type { JobSpec } from '#domain/agent-api.ts'
import type { ScanProfile } from '#domain/scan-jobs.ts'
import { startEgressProxy } from './egress-proxy.ts'
import { TargetRefused, type TargetGuard } from './scope.ts'

const VERSION_COMMANDS: Record<ScannerName, { command: string; args: string[]; pattern: RegExp }> = {
  nmap: { command: 'nmap', args: ['--version'], pattern: /Nmap version (\S+)/ },
  wapiti: { command: 'wapiti', args: ['--version'], pattern: /Wapiti[- ]v?(\d[\w.]*)/i },
  testssl: { command: 'testssl', args: ['--version'], pattern: /testssl(?:\.sh)?\s+(?:version\s+)?(\d[\w.~-]*)/i },
  john: { command: 'john', args: [], pattern: /John the Ripper (?:password cracker, )?(?:version )?(\d[\w.-]*)/i },
}

/** The scanners installed here, with their versions, and what is missing. */
export function detectScanners(): { scanners: Scanner[]; missing: ScannerName[] } {
  const scanners: Scanner[] = []
  const missing: ScannerName[] = []
  for (const [name, probe] of Object.entries(VERSION_COMMANDS) as [ScannerName, (typeof VERSION_COMMANDS)[ScannerName]][]) {
    const run = spawnSync(probe.command, probe.args, { encoding: 'utf8', timeout: 20_000 })
    const text = `${run.stdout ?? ''}${run.stderr ?? ''}`
    const version = probe.pattern.exec(text)?.[1]
    if (run.error || !version) missing.push(name)
    else scanners.push({ name, version })
  }
  return { scanners, missing }
}

export class ScanRunError extends Error {}

export interface RunLimits {
  maxRunMs: number
  maxOutputBytes: number
  signal: AbortSignal
}

/** Runs one command; its report file is read once it exits. Refuses a run over time or an output over size. */
async function runTool(command: string, args: string[], reportFile: string, limits: RunLimits): Promise<string> {
  // No proxy settings of the host's: a scanner's traffic goes where its arguments say, or through the agent's proxy.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|all|no)_proxy$/i.test(name)))
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4_000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let reason: string | null = null
  const kill = (why: string) => {
    reason ??= why
    child.kill('SIGKILL')
  }
  const timer = setTimeout(() => kill(`${command} ran longer than ${Math.round(limits.maxRunMs / 1000)} s`), limits.maxRunMs)
  const onAbort = () => kill(`${command} was stopped: the job's lease was lost`)
  limits.signal.addEventListener('abort', onAbort)
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (exitCode) => resolve(exitCode))
  }).finally(() => {
    clearTimeout(timer)
    limits.signal.removeEventListener('abort', onAbort)
  })
  if (reason) throw new ScanRunError(reason)
  const size = await stat(reportFile).then(
    (s) => s.size,
    () => -1,
  )
  if (size < 0) throw new ScanRunError(`${command} exited with ${code} and wrote no report: ${tail.trim().slice(-500)}`)
  if (size > limits.maxOutputBytes)
    throw new ScanRunError(`${command}'s report is ${size} bytes, over the job's limit of ${limits.maxOutputBytes}`)
  return readFile(reportFile, 'utf8')
}

/** Where a run's scanner may connect: the egress proxy for wapiti, the pinned addresses for nmap and testssl.sh. */
interface Egress {
  proxy?: string
  /** Each target host's pinned addresses (an address or range stands for itself). */
  addresses: Map<string, string[]>
}

/** The command line of one run of a profile's scanner, writing its report to `report`. */
function commandFor(
  profile: ScanProfile,
  targets: string[],
  dir: string,
  report: string,
  maxRunMs: number,
  egress: Egress,
): [string, string[]] {
  switch (profile) {
    case 'web-dast':
      return [
        'wapiti',
        [
          '-u',
          targets[0]!,
          '--proxy',
          egress.proxy!,
          '--scope',
          'folder',
          '-m',
          'xss,sql,exec,file,http_headers,csp,backup,redirect',
          '-f',
          'json',
          '-o',
          report,
          '--flush-session',
          '--store-session',
          path.join(dir, 'session'),
          '--store-config',
          path.join(dir, 'config'),
          '--max-scan-time',
          String(Math.max(10, Math.floor(maxRunMs / 1000) - 10)),
          '-v',
          '0',
        ],
      ]
    case 'network-ports': {
      const hosts = [...new Set(targets.flatMap((t) => egress.addresses.get(targetHost(t) ?? '') ?? []))]
      const ports = [...new Set(targets.flatMap((t) => /^(?:[a-z]+:\/\/)?[^/]*:(\d+)(?:\/|$)/.exec(t)?.[1] ?? []))]
      return [
        'nmap',
        [
          '-sV',
          '-Pn',
          '-T4',
          ...(ports.length ? ['-p', ports.join(',')] : ['--top-ports', '100']),
          '--script',
          'http-title,http-enum',
          '-oX',
          report,
          ...hosts,
        ],
      ]
    }
    case 'tls-config': {
      const pinned = egress.addresses.get(targetHost(targets[0]!) ?? '')?.[0]
      return ['testssl', ['--quiet', '--color', '0', '--warnings', 'off', '--ip', pinned!, '--jsonfile-pretty', report, targets[0]!]]
    }
    case 'password-audit':
      throw new ScanRunError('A password audit is opened and run by runPasswordAuditJob, not as a scanner command.')
  }
}

/** Each target host's pinned addresses; a target the guard refuses now stops the job. */
async function pinnedAddresses(targets: string[], guard: TargetGuard): Promise<Map<string, string[]>> {
  const addresses = new Map<string, string[]>()
  for (const target of targets) {
    const host = targetHost(target)
    if (!host || addresses.has(host)) continue
    if (host.includes('/')) {
      addresses.set(host, [host])
      continue
    }
    const verdict = await guard.host(host)
    if ('refusal' in verdict) throw new TargetRefused([verdict.refusal])
    addresses.set(host, verdict.addresses)
  }
  return addresses
}

/** Runs a job's scanner: once for all targets (nmap) or once per target (wapiti, testssl.sh). */
export async function runJob(
  job: JobSpec,
  guard: TargetGuard,
  signal: AbortSignal,
  onRun: (target: string) => void,
  log: (line: string) => void = () => {},
): Promise<string[]> {
  const perTarget = job.profile !== 'network-ports'
  const groups = perTarget ? job.targets.map((t) => [t]) : [job.targets]
  const started = Date.now()
  const outputs: string[] = []
  let used = 0
  for (const group of groups) {
    const dir = await mkdtemp(path.join(tmpdir(), 'bulwark-agent-'))
    const proxy = job.profile === 'web-dast' ? await startEgressProxy(guard, job.scope, log) : null
    try {
      const left = job.maxRunMs - (Date.now() - started)
      if (left <= 0) throw new ScanRunError(`The job ran longer than ${Math.round(job.maxRunMs / 1000)} s`)
      onRun(group.join(', '))
      const report = path.join(dir, 'report')
      const egress: Egress = { addresses: await pinnedAddresses(group, guard), ...(proxy ? { proxy: proxy.url } : {}) }
      const [command, args] = commandFor(job.profile, group, dir, report, left, egress)
      const output = await runTool(command, args, report, { maxRunMs: left, maxOutputBytes: job.maxOutputBytes - used, signal })
      used += output.length
      outputs.push(output)
      if (proxy?.refused.length) log(`${command} on ${group.join(', ')}: ${proxy.refused.length} requests refused by the egress proxy`)
    } finally {
      await proxy?.close()
      await rm(dir, { recursive: true, force: true })
    }
  }
  return outputs
}
