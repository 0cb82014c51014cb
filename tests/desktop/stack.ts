// The local stack the desktop app's window shows: the production build served in workerd with the
// emulators and the mail inbox, started here unless one already answers (outside CI).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { nodeBinary, ROOT } from '../../emulators/firebase/env.ts'

const APP_URL = `http://127.0.0.1:${process.env.APP_PORT ?? 3000}/`

const answers = () =>
  fetch(APP_URL).then(
    (response) => response.ok,
    () => false,
  )

export default async function setup(): Promise<() => Promise<void>> {
  if (!process.env.CI && (await answers())) return async () => {}
  if (!existsSync(join(ROOT, 'dist', 'server', 'wrangler.json'))) {
    const build = spawnSync(nodeBinary(), [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], { cwd: ROOT, stdio: 'inherit' })
    if (build.status !== 0) throw new Error('vite build failed')
  }
  const stack = spawn(nodeBinary(), ['--experimental-strip-types', 'scripts/dev.ts', '--app=preview', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, SEED_REPORTS_SCALE: '0.1' },
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => stack.once('exit', () => resolve()))
  const deadline = Date.now() + 180_000
  while (!(await answers())) {
    if (stack.exitCode !== null || Date.now() > deadline) throw new Error('The local stack did not start')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  return async () => {
    process.kill(-stack.pid!, 'SIGTERM')
    await exited
  }
}
