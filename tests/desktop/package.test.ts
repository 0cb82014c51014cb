// The .deb as a person installs it: its control data and files, then unpacked into a scratch root
// (`dpkg -x`, the files `dpkg -i` would install) and started from there, showing Home; a bulwark://
// address opened the way the desktop opens one (xdg-open, through the package's own desktop file)
// reaches the running app. The package is the one `.ci/run` makes from the tests' build
// (`npm run desktop:deb -- --debug`) or `npm run desktop:build`'s, whichever is newer.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { debPackage } from '../../desktop/paths.ts'
import { DesktopHarness, PRODUCT_URL } from './support/desktop'
import { waitFor } from './support/webdriver'

const packages = [debPackage('debug'), debPackage('release')].filter((path) => path !== undefined)
const deb = packages.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
const dpkgDeb = (...args: string[]) => execFileSync('dpkg-deb', [...args, deb!], { encoding: 'utf8' })
const DESKTOP_FILE = 'usr/share/applications/Bulwark.desktop'

const root = mkdtempSync(join(tmpdir(), 'bulwark-deb-'))
beforeAll(() => {
  if (deb) execFileSync('dpkg', ['-x', deb, root])
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('the .deb', () => {
  it('exists (`npm run desktop:deb -- --debug` makes it from the tests’ build)', () => {
    expect(deb).toBeDefined()
  })

  it('names the product and what it needs from the system', () => {
    const field = (name: string) => dpkgDeb('--field').match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1]
    expect(field('Package')).toBe('bulwark')
    expect(field('Description')).toBe('Security testing workspace')
    expect(field('Depends')?.split(', ')).toEqual(['libwebkit2gtk-4.1-0', 'libgtk-3-0'])
    expect(Number(field('Installed-Size'))).toBeGreaterThan(1024)
    expect(dpkgDeb('--info')).toContain('new Debian package')
  })

  it('holds the app, its icon and a desktop file that opens bulwark:// addresses with the app', () => {
    const files = dpkgDeb('--contents')
      .split('\n')
      .filter((line) => line.startsWith('-'))
      .map((line) => line.split(/\s+/).at(-1)!.replace(/^\.\//, ''))
    expect(files).toContain('usr/bin/bulwark-desktop')
    expect(files).toContain(DESKTOP_FILE)
    for (const size of ['32x32', '128x128', '512x512']) expect(files).toContain(`usr/share/icons/hicolor/${size}/apps/bulwark-desktop.png`)

    const entry = readFileSync(join(root, DESKTOP_FILE), 'utf8')
    const lines = entry.split('\n')
    expect(lines).toContain('Name=Bulwark')
    expect(lines).toContain('Icon=bulwark-desktop')
    expect(lines).toContain('MimeType=x-scheme-handler/bulwark')
    // %u: the address the desktop opens is given to the app (without it the app starts bare).
    expect(lines).toContain('Exec=bulwark-desktop %u')
  })

  it('installed, starts and shows Home, and receives the bulwark:// addresses the desktop opens', async () => {
    const harness = new DesktopHarness(join(root, 'usr', 'bin', 'bulwark-desktop'))
    await harness.start()
    try {
      const app = await harness.launch()
      await waitFor(
        'Home',
        async () =>
          (await app.url()) === PRODUCT_URL && (await app.execute<boolean>('return !!document.querySelector("input[type=email]")')),
      )
      expect(await app.title()).toContain('Bulwark')
      harness.screen('installed-home')

      // The desktop as after `dpkg -i`: the package's files on the system's paths, its desktop file the
      // handler of bulwark:// (a development build registers itself at start: this replaces that).
      const desktop = {
        ...harness.env,
        PATH: `${join(root, 'usr', 'bin')}:${harness.env.PATH}`,
        XDG_DATA_DIRS: `${join(root, 'usr', 'share')}:/usr/share`,
      }
      const mimeapps = join(harness.env.XDG_CONFIG_HOME!, 'mimeapps.list')
      const defaults = readFileSync(mimeapps, 'utf8')
        .split('\n')
        .filter((line) => line && !line.startsWith('x-scheme-handler/bulwark='))
      writeFileSync(mimeapps, [...defaults, 'x-scheme-handler/bulwark=Bulwark.desktop', ''].join('\n'))
      expect(execFileSync('xdg-mime', ['query', 'default', 'x-scheme-handler/bulwark'], { env: desktop, encoding: 'utf8' }).trim()).toBe(
        'Bulwark.desktop',
      )
      const opened = spawn('xdg-open', ['bulwark://auth/redirect?mode=signIn&oobCode=from-the-desktop&apiKey=fake-api-key&lang=en'], {
        env: desktop,
        stdio: 'ignore',
      })
      expect(await new Promise((resolve) => opened.once('exit', resolve))).toBe(0)
      // The running app opens its sign-in page for it (this browser asked for no link: it asks for the address).
      await waitFor('the sign-in page of the handed address', async () => {
        const url = new URL(await app.url())
        return url.pathname === '/auth/redirect' && (await app.execute<string>('return document.body.innerText')).includes('Welcome')
      })
      expect(await app.windowHandles()).toHaveLength(1)
      harness.screen('installed-link')
    } finally {
      await harness.stop()
    }
  })
})
