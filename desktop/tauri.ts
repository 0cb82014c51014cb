// `npm run desktop:dev`, `desktop:build` and `desktop:deb` (`tauri bundle`: the package of a build
// already made): the Tauri CLI with Cargo's output kept outside the clone. The window opens BULWARK_APP_URL (the local stack, http://127.0.0.1:3000, unless set).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { DESKTOP_DIR, targetDir } from './paths.ts'

const [command = 'dev', ...rest] = process.argv.slice(2)
const cli = join(DESKTOP_DIR, '..', 'node_modules', '.bin', process.platform === 'win32' ? 'tauri.cmd' : 'tauri')
// The window shows the running web app (`npm run dev` serves it), not the CLI's own server.
const args = command === 'dev' ? ['dev', '--no-dev-server', ...rest] : [command, ...rest]
const result = spawnSync(cli, args, {
  cwd: DESKTOP_DIR,
  stdio: 'inherit',
  env: { ...process.env, CARGO_TARGET_DIR: targetDir() },
})
process.exit(result.status ?? 1)
