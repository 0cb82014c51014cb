// A password audit on the agent (decision 0021): the sealed hash file and word list are opened here,
// john cracks the NT hashes with the word list under the job's time limit, and the audit is derived
// with the same module as the analyst's browser (password-audit-import.ts), so what leaves this host
// holds no hash and no password. Plaintext lives only in a 0700 scratch directory removed afterwards.
//
// Debian's john (1.9.0, not the jumbo build) has no NT format; its `crypt` format hands hashes to the
// system's crypt(3), and libxcrypt knows NT hashes as `$3$$<hex>`. john keeps what it cracks in
// ~/.john/john.pot and has no option to move it: run as root, john gets a private mount of that
// directory (a mount namespace) so the pot lands in the scratch directory; otherwise the job's
// lines are taken out of the user's pot once john is done.
import { spawn, spawnSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import type { ParsedScan } from '#domain/scan-import/parsed-scan.ts'
import { importPasswordAudit } from '#domain/scan-import/password-audit-import.ts'
import { readNtds } from '#domain/scan-import/ntds.ts'
import { textChunks } from '#domain/scan-import/text-source.ts'
import { openPasswordAudit, type PasswordAuditInput, type SealingKey } from '#domain/agent-sealing.ts'
import type { JobSpec } from '#domain/agent-api.ts'
import { ScanRunError } from './scanners.ts'

export interface CrackLimits {
  maxRunMs: number
  signal: AbortSignal
  /** john's path: /usr/sbin/john (Debian) or whatever `john` is on PATH. */
  john?: string
}

const MAX_STDOUT = 64 * 1024 * 1024

export function johnPath(): string {
  const probe = spawnSync('sh', ['-c', 'command -v john || ls /usr/sbin/john'], { encoding: 'utf8' })
  const found = probe.stdout.trim().split('\n')[0]
  return found || 'john'
}

/** Whether john can run in a private mount namespace here (root, with unshare available). */
function privatePotPossible(): boolean {
  if (process.getuid?.() !== 0) return false
  return spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']).status === 0
}

/** Runs a command without a shell; its stdout, or a refusal when it runs over time or is stopped. */
async function run(command: string, args: string[], limits: { deadline: number; signal: AbortSignal }): Promise<string> {
  if (limits.signal.aborted) throw new ScanRunError("john was stopped: the job's lease was lost")
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let tail = ''
  child.stdout.on('data', (chunk: Buffer) => {
    if (stdout.length < MAX_STDOUT) stdout += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-2_000)
  })
  let reason: string | null = null
  const kill = (why: string) => {
    reason ??= why
    child.kill('SIGKILL')
  }
  const timer = setTimeout(() => kill('john ran longer than the job allows'), Math.max(0, limits.deadline - Date.now()))
  const onAbort = () => kill("john was stopped: the job's lease was lost")
  limits.signal.addEventListener('abort', onAbort)
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', resolve)
  }).finally(() => {
    clearTimeout(timer)
    limits.signal.removeEventListener('abort', onAbort)
  })
  if (reason) throw new ScanRunError(reason)
  if (code !== 0) throw new ScanRunError(`john exited with ${code}: ${tail.trim().slice(-500)}`)
  return stdout
}

/** A pot's text without the lines of the given hashes (john writes `$3$$<nt>:password`). */
export function withoutHashes(pot: string, ntHashes: ReadonlySet<string>): string {
  return pot
    .split('\n')
    .filter((line) => {
      const hash = /^\$3\$\$([0-9a-f]{32}):/i.exec(line)?.[1]?.toLowerCase()
      return !hash || !ntHashes.has(hash)
    })
    .join('\n')
}

/** john's `--show` output for a file of `<nt>:$3$$<nt>` lines: NT hash → password. */
export function readShow(output: string, ntHashes: ReadonlySet<string>): Map<string, string> {
  const cracked = new Map<string, string>()
  for (const line of output.split('\n')) {
    const match = /^([0-9a-f]{32}):(.*)$/.exec(line.replace(/\r$/, ''))
    if (match && ntHashes.has(match[1]!)) cracked.set(match[1]!, match[2]!)
  }
  return cracked
}

/** Cracks NT hashes (lowercase hex) with a word list; the passwords found, by hash. The scratch directory is removed. */
export async function crackNtHashes(ntHashes: readonly string[], wordlist: string, limits: CrackLimits): Promise<Map<string, string>> {
  const wanted = new Set(ntHashes.map((h) => h.toLowerCase()).filter((h) => /^[0-9a-f]{32}$/.test(h)))
  if (wanted.size === 0) return new Map()
  const john = limits.john ?? johnPath()
  const deadline = Date.now() + limits.maxRunMs
  const dir = await mkdtemp(path.join(tmpdir(), 'bulwark-john-'))
  try {
    await chmod(dir, 0o700)
    const hashes = path.join(dir, 'hashes')
    const words = path.join(dir, 'words')
    await writeFile(hashes, [...wanted].map((nt) => `${nt}:$3$$${nt}\n`).join(''), { mode: 0o600 })
    await writeFile(words, wordlist.endsWith('\n') ? wordlist : `${wordlist}\n`, { mode: 0o600 })
    const crack = ['--format=crypt', `--wordlist=${words}`, `--session=${path.join(dir, 'session')}`, hashes]
    const show = ['--show', '--format=crypt', hashes]
    if (privatePotPossible()) {
      const johnHome = path.join(homedir(), '.john')
      const pot = path.join(dir, 'pot')
      await mkdir(johnHome, { recursive: true, mode: 0o700 })
      await mkdir(pot, { mode: 0o700 })
      // One namespace for both runs: the private ~/.john (and the pot in it) is gone when it ends.
      const script = 'mount --bind "$1" "$2" && shift 2 && "$@" >/dev/null && exec "$0" --show --format=crypt "$JOB_HASHES"'
      const output = await run(
        'unshare',
        ['--mount', '--propagation', 'private', 'env', `JOB_HASHES=${hashes}`, 'sh', '-c', script, john, pot, johnHome, john, ...crack],
        { deadline, signal: limits.signal },
      )
      return readShow(output, wanted)
    }
    await run(john, crack, { deadline, signal: limits.signal })
    const output = await run(john, show, { deadline: Math.max(deadline, Date.now() + 30_000), signal: limits.signal })
    await scrubUserPot(wanted)
    return readShow(output, wanted)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function scrubUserPot(wanted: ReadonlySet<string>): Promise<void> {
  const pot = path.join(homedir(), '.john', 'john.pot')
  const text = await readFile(pot, 'utf8').catch(() => null)
  if (text === null) return
  const kept = withoutHashes(text, wanted)
  if (kept === text) return
  await writeFile(`${pot}.tmp`, kept, { mode: 0o600 })
  await rename(`${pot}.tmp`, pot)
}

/**
 * The whole audit on the agent: the dump's NT hashes cracked with the word list, then derived with the
 * browser's module and the company's reuse key. The result holds no hash and no password.
 */
export async function runPasswordAudit(input: PasswordAuditInput, reuseKeyHex: string, limits: CrackLimits): Promise<ParsedScan> {
  const dump = await readNtds(textChunks(input.ntds), () => {})
  const cracked = await crackNtHashes(
    dump.records.map((r) => r.nt),
    input.wordlist,
    limits,
  )
  // A hashcat-style pot in memory (`nt:password`), read by the same importer as an uploaded one.
  const pot = [...cracked].map(([nt, password]) => `${nt}:${password}\n`).join('')
  const reuseKey = Uint8Array.from(reuseKeyHex.match(/../g) ?? [], (byte) => parseInt(byte, 16))
  return importPasswordAudit({
    ntds: textChunks(input.ntds),
    pots: pot ? [textChunks(pot)] : [],
    reuseKey,
    companyNames: input.companyNames,
    policyMinLength: input.policyMinLength,
    privilegedAccounts: input.privilegedAccounts,
  })
}

/** This agent's sealing key pair, from its state file. */
export interface AgentSealing {
  agentId: string
  publicKey: SealingKey
  privateKeyText: string
}

/** A leased password-audit job: its inputs opened with this agent's key, cracked and derived here. */
export async function runPasswordAuditJob(job: JobSpec, sealing: AgentSealing | null, signal: AbortSignal): Promise<{ audit: ParsedScan }> {
  if (!job.passwordAudit) throw new ScanRunError('The password audit came without its sealed input.')
  if (!sealing) throw new ScanRunError('This agent has no key for password audits: enrol it again with a new token.')
  const { company, sealed, reuseKey } = job.passwordAudit
  const input = await openPasswordAudit(sealing.privateKeyText, sealing.publicKey, sealed, { company, agentId: sealing.agentId })
  return { audit: await runPasswordAudit(input, reuseKey, { maxRunMs: job.maxRunMs, signal }) }
}
