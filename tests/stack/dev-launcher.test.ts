// `npm run dev` as a person uses it: it starts the whole stack, everything answers, and Ctrl-C
// (SIGINT to the process group, as a terminal sends it) leaves no process and no port behind.
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { EMULATOR_HOST, EMULATOR_PORTS, nodeBinary, ROOT } from '../../emulators/firebase/env.ts'
import { descendants } from '../../emulators/firebase/processes.ts'

const PORTS = { app: 3000, mailSmtp: 1025, mailHttp: 1080 }

function launch(args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(nodeBinary(), ['--experimental-strip-types', 'scripts/dev.ts', ...args], {
    cwd: ROOT,
    // A tenth of the demo year: the full year's seed is proven by tests/emulators/seed-reports.test.ts,
    // and here it would only add a minute before the launcher is ready.
    env: { ...process.env, CI: 'true', SEED_REPORTS_SCALE: '0.1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)))
  })
}

let blocker: Server | undefined
afterEach(() => blocker?.close())

describe('npm run dev', () => {
  it('says in one line which port is taken, and starts nothing', async () => {
    blocker = createServer()
    await new Promise<void>((resolve) => blocker!.listen(PORTS.mailHttp, '127.0.0.1', resolve))
    const run = launch()
    expect(await run.exited).toBe(1)
    const lines = run
      .output()
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('npm warn'))
    expect(lines).toEqual([`✖ Port ${PORTS.mailHttp} (mail inbox) is in use: stop what uses it or set MAIL_HTTP_PORT`])
  })

  it('serves the app, the inbox and the emulators, and Ctrl-C stops every process it started', async () => {
    const run = launch()
    const seen = new Set<number>()
    const remember = setInterval(() => {
      for (const p of descendants(run.child.pid!)) seen.add(p.pid)
    }, 200)
    try {
      await waitFor(() => run.output().includes('Ctrl-C stops everything.'), 150_000)
      expect(run.output()).toContain('viewer@acme.example')

      const home = await fetch(`http://127.0.0.1:${PORTS.app}/reports`)
      expect(home.status).toBe(200)
      const html = await home.text()
      expect(html.slice(0, html.indexOf('</head>'))).toContain('<style data-styled')
      expect((await fetch(`http://127.0.0.1:${PORTS.mailHttp}/api/messages`)).status).toBe(200)
      // Seeded: the demo users exist in the Auth emulator.
      const users = await fetch(
        `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}/identitytoolkit.googleapis.com/v1/projects/demo-sectest/accounts:query`,
        { method: 'POST', headers: { Authorization: 'Bearer owner', 'Content-Type': 'application/json' }, body: '{}' },
      )
      expect(((await users.json()) as { recordsCount: string }).recordsCount).not.toBe('0')
    } finally {
      clearInterval(remember)
      for (const p of descendants(run.child.pid!)) seen.add(p.pid)
      process.kill(-run.child.pid!, 'SIGINT')
    }

    expect(await run.exited).toBe(0)
    expect(seen.size).toBeGreaterThan(3)
    await waitFor(() => [...seen].every((pid) => !alive(pid)), 10_000)
    for (const port of [PORTS.app, PORTS.mailSmtp, PORTS.mailHttp, ...Object.values(EMULATOR_PORTS)]) {
      expect(await portFree(port), `port ${port}`).toBe(true)
    }
  })
})
