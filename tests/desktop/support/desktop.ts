// The desktop app for real: a virtual display (Xvfb), a session bus (the single-instance check
// uses D-Bus), WebKit's own WebDriver driving the app's webview, and xdotool for keys that must
// go through the window's native menu. The capabilities are the ones tauri-driver forwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { appBinary } from '../../../desktop/paths.ts'
import { WebDriverSession, waitFor } from './webdriver.ts'

export const PRODUCT_URL = `http://127.0.0.1:${process.env.APP_PORT ?? 3000}/`
export const SCREENSHOTS = join(process.cwd(), '.local', 'desktop-screenshots')

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Starts `command` and resolves with the first line it prints on stdout. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk
      const end = output.indexOf('\n')
      if (end >= 0) resolve(output.slice(0, end).trim())
    })
    child.once('exit', (code) => reject(new Error(`${what} exited (${code})`)))
  })
}

/** Not yet exited: a child ended by a signal has a signalCode and no exitCode. */
const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

export class DesktopHarness {
  readonly home = mkdtempSync(join(tmpdir(), 'bulwark-desktop-'))
  /** Every address the app handed to "the browser" (the BROWSER that xdg-open runs). */
  readonly browserLog = join(this.home, 'browser.log')
  env: NodeJS.ProcessEnv = {}
  private readonly children: ChildProcess[] = []
  private driverUrl = ''
  session: WebDriverSession | undefined
  private windowManager: ChildProcess | undefined

  readonly binary: string

  constructor(binary = appBinary('debug')) {
    this.binary = binary
  }

  async start(): Promise<void> {
    if (!existsSync(this.binary)) throw new Error(`No desktop build at ${this.binary}: run cargo build in desktop/src-tauri`)
    mkdirSync(SCREENSHOTS, { recursive: true })
    // "The browser": the desktop's default handler for web addresses, which records what it is given.
    const browser = join(this.home, 'browser.sh')
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${this.browserLog}'\n`)
    chmodSync(browser, 0o755)
    mkdirSync(join(this.home, 'data', 'applications'), { recursive: true })
    mkdirSync(join(this.home, 'config'), { recursive: true })
    writeFileSync(
      join(this.home, 'data', 'applications', 'test-browser.desktop'),
      `[Desktop Entry]\nType=Application\nName=Browser\nExec=${browser} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n`,
    )
    writeFileSync(
      join(this.home, 'config', 'mimeapps.list'),
      '[Default Applications]\nx-scheme-handler/http=test-browser.desktop\nx-scheme-handler/https=test-browser.desktop\n',
    )

    const xvfb = this.spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1440x900x24', '-nolisten', 'tcp'], {})
    const display = `:${await firstLine(xvfb, 'Xvfb')}`
    const bus = this.spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {})
    const busAddress = await firstLine(bus, 'dbus-daemon')
    this.env = {
      PATH: process.env.PATH,
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, 'config'),
      XDG_DATA_HOME: join(this.home, 'data'),
      XDG_CACHE_HOME: join(this.home, 'cache'),
      XDG_RUNTIME_DIR: this.home,
      DISPLAY: display,
      DBUS_SESSION_BUS_ADDRESS: busAddress,
      BROWSER: browser,
      BULWARK_APP_URL: PRODUCT_URL,
      // What tauri-driver sets: the webview accepts WebDriver's automation session.
      TAURI_WEBVIEW_AUTOMATION: 'true',
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
      LANG: 'en_GB.UTF-8',
    }
    const port = await freePort()
    this.spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], this.env)
    this.driverUrl = `http://127.0.0.1:${port}`
    await waitFor('WebKitWebDriver', async () => (await fetch(`${this.driverUrl}/status`)).ok)
  }

  /** Launches the app under WebDriver, as tauri-driver would. */
  async launch(args: string[] = []): Promise<WebDriverSession> {
    this.session = await WebDriverSession.start(this.driverUrl, { 'webkitgtk:browserOptions': { binary: this.binary, args } })
    return this.session
  }

  /** Another launch of the app, as a desktop's URL handler does; resolves with its exit code. */
  launchAgain(args: string[]): Promise<number | null> {
    const child = spawn(this.binary, args, { env: this.env, stdio: 'ignore' })
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  }

  /** Real key presses on the app's window, through the X server (so the native menu sees them). */
  keys(...keys: string[]): void {
    const window = this.windowId()
    this.xdotool(['windowfocus', '--sync', window])
    this.xdotool(['key', '--window', window, '--delay', '50', ...keys])
  }

  /**
   * A window manager for the tests that need one: on a desktop it decides which window is active, and
   * without one X ignores an app's request for focus made after the person last typed elsewhere.
   */
  async startWindowManager(): Promise<void> {
    // Openbox's defaults, less the minimise animation (a screenshot would catch it half-way).
    const config = join(this.home, 'openbox.xml')
    writeFileSync(
      config,
      '<openbox_config xmlns="http://openbox.org/3.4/rc"><theme><animateIconify>no</animateIconify></theme></openbox_config>\n',
    )
    this.windowManager = this.spawn('openbox', ['--sm-disable', '--config-file', config], this.env)
    const window = this.windowId()
    await waitFor('the window manager managing the app', async () => this.managed().includes(Number(window)))
  }

  async stopWindowManager(): Promise<void> {
    const manager = this.windowManager
    this.windowManager = undefined
    if (!manager || !isRunning(manager)) return
    const exited = new Promise((resolve) => manager.once('exit', resolve))
    manager.kill('SIGTERM')
    await exited
  }

  /** Another program's window (a person's mail client, say), opened and made the active one. */
  async otherWindow(): Promise<{ id: string; close: () => void }> {
    const child = this.spawn('xmessage', ['-geometry', '640x400+120+120', 'Mail'], this.env)
    const id = await waitFor('the other window', async () => this.managed().find((window) => String(window) !== this.windowId()))
    this.xdotool(['windowactivate', '--sync', String(id)])
    return { id: String(id), close: () => child.kill('SIGTERM') }
  }

  /** The window the window manager calls active (_NET_ACTIVE_WINDOW). */
  activeWindow(): string {
    return this.xdotool(['getactivewindow']).trim()
  }

  /** The windows the window manager manages (_NET_CLIENT_LIST). */
  private managed(): number[] {
    const result = spawnSync('xprop', ['-root', '_NET_CLIENT_LIST'], { env: this.env, encoding: 'utf8' })
    return [...(result.stdout ?? '').matchAll(/0x[0-9a-f]+/g)].map(([hex]) => Number(hex))
  }

  windowId(): string {
    return this.xdotool(['search', '--onlyvisible', '--name', '^Bulwark']).split('\n')[0]!.trim()
  }

  xdotool(args: string[]): string {
    const result = spawnSync('xdotool', args, { env: this.env, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`xdotool ${args.join(' ')}: ${result.stderr}`)
    return result.stdout
  }

  /** The whole screen (window decorations and native menu included) as a PNG. */
  screen(name: string): string {
    const path = join(SCREENSHOTS, `${name}.png`)
    const result = spawnSync('scrot', ['--overwrite', path], { env: this.env, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`scrot: ${result.stderr}`)
    return path
  }

  browserOpened(): string[] {
    return existsSync(this.browserLog) ? readFileSync(this.browserLog, 'utf8').split('\n').filter(Boolean) : []
  }

  async stop(): Promise<void> {
    await this.session?.end().catch(() => undefined)
    const running = this.children.reverse().filter(isRunning)
    const exited = running.map((child) => new Promise((resolve) => child.once('exit', resolve)))
    for (const child of running) child.kill('SIGTERM')
    await Promise.all(exited)
    rmSync(this.home, { recursive: true, force: true })
  }

  private spawn(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stderr!.on('data', (chunk: Buffer) => {
      if (process.env.DESKTOP_DEBUG) process.stderr.write(`[${command}] ${chunk}`)
    })
    this.children.push(child)
    return child
  }
}
