// Where the desktop app's build lives. Cargo's output stays outside the clone (it is large, and a
// fresh clone on the same machine then builds incrementally): CARGO_TARGET_DIR, else the cache.
import { homedir } from 'node:os'
import { join } from 'node:path'

export const DESKTOP_DIR = new URL('.', import.meta.url).pathname
export const CRATE_DIR = join(DESKTOP_DIR, 'src-tauri')

export function targetDir(): string {
  if (process.env.CARGO_TARGET_DIR) return process.env.CARGO_TARGET_DIR
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(cache, 'bulwark-desktop', 'target')
}

/** The app's executable of a cargo profile ('debug' for tests, 'release' for packages). */
export function appBinary(profile: 'debug' | 'release' = 'debug'): string {
  return join(targetDir(), profile, process.platform === 'win32' ? 'bulwark-desktop.exe' : 'bulwark-desktop')
}
