import { existsSync } from 'node:fs'

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * The whole browser, for the benchmarks and the desktop tests: CHROMIUM_PATH if set, else Debian's Chromium,
 * else (undefined) Playwright's own browser where one is installed.
 */
export function chromiumExecutable(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined
}

const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

/**
 * The browser for the end-to-end suite: CHROMIUM_PATH if set, else Debian's build of Chromium's
 * headless shell, as Playwright runs headless tests in its own shell; it asks about a fifth less
 * CPU than the whole browser (decision 0028). Else the whole browser, as above.
 */
export function headlessShellExecutable(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  return existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : chromiumExecutable()
}

/** Flags that keep Chromium off the network (there is none here) and working as root. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]
