// Where the desktop app's build lives, decided here alone (`.ci/run`, the npm scripts, the tests and
// the bench all ask this file). Cargo's output stays outside the clone (it is large, and a fresh clone
// on the same machine then builds incrementally): CARGO_TARGET_DIR if set, else the machine's cache
// (/var/cache, where CI builds) when it exists or can be made, else the person's own cache.
import { accessSync, constants, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export const DESKTOP_DIR = new URL('.', import.meta.url).pathname
export const CRATE_DIR = join(DESKTOP_DIR, 'src-tauri')
export const MACHINE_TARGET_DIR = '/var/cache/bulwark-desktop/target'

function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

export function targetDir(): string {
  if (process.env.CARGO_TARGET_DIR) return process.env.CARGO_TARGET_DIR
  if (process.platform !== 'win32' && writable(MACHINE_TARGET_DIR)) return MACHINE_TARGET_DIR
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(cache, 'bulwark-desktop', 'target')
}

/** The app's executable of a cargo profile ('debug' for tests, 'release' for packages). */
export function appBinary(profile: 'debug' | 'release' = 'debug'): string {
  return join(targetDir(), profile, process.platform === 'win32' ? 'bulwark-desktop.exe' : 'bulwark-desktop')
}

/** The .deb made from that build (`npm run desktop:build`, or `npm run desktop:deb [-- --debug]`), if any. */
export function debPackage(profile: 'debug' | 'release' = 'release'): string | undefined {
  const dir = join(targetDir(), profile, 'bundle', 'deb')
  const name = existsSync(dir) ? readdirSync(dir).find((file) => file.endsWith('.deb')) : undefined
  return name && join(dir, name)
}

// `node desktop/paths.ts` prints the directory, for the shell (`.ci/run`).
if (import.meta.main) console.log(targetDir())
