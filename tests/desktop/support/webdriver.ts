// A small W3C WebDriver client: the few commands the desktop tests use, over plain HTTP.
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'

export class WebDriverSession {
  private readonly base: string

  constructor(driverUrl: string, sessionId: string) {
    this.base = `${driverUrl}/session/${sessionId}`
  }

  static async start(driverUrl: string, capabilities: Record<string, unknown>): Promise<WebDriverSession> {
    const value = await command<{ sessionId: string }>('POST', `${driverUrl}/session`, { capabilities: { alwaysMatch: capabilities } })
    return new WebDriverSession(driverUrl, value.sessionId)
  }

  send<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return command<T>(method, `${this.base}${path}`, body)
  }

  url = () => this.send<string>('GET', '/url')
  title = () => this.send<string>('GET', '/title')
  navigate = (url: string) => this.send<null>('POST', '/url', { url })
  windowHandles = () => this.send<string[]>('GET', '/window/handles')
  windowRect = () => this.send<{ x: number; y: number; width: number; height: number }>('GET', '/window/rect')
  setWindowRect = (rect: { x?: number; y?: number; width?: number; height?: number }) => this.send('POST', '/window/rect', rect)

  execute<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.send<T>('POST', '/execute/sync', { script, args })
  }

  /** Runs `script` as the body of an async function; its result (or thrown message) comes back. */
  async run<T>(script: string, ...args: unknown[]): Promise<T> {
    const wrapped = `const done = arguments[arguments.length - 1];
      (async (...args) => { ${script} })(...Array.from(arguments).slice(0, -1)).then(
        (value) => done({ ok: true, value }), (error) => done({ ok: false, error: String(error && error.message || error) }))`
    const result = await this.send<{ ok: boolean; value?: T; error?: string }>('POST', '/execute/async', { script: wrapped, args })
    if (!result.ok) throw new Error(result.error)
    return result.value as T
  }

  async find(css: string): Promise<string> {
    const found = await this.send<Record<string, string>>('POST', '/element', { using: 'css selector', value: css })
    return found[ELEMENT]!
  }

  async findByXPath(xpath: string): Promise<string> {
    const found = await this.send<Record<string, string>>('POST', '/element', { using: 'xpath', value: xpath })
    return found[ELEMENT]!
  }

  click = (element: string) => this.send('POST', `/element/${element}/click`, {})
  type = (element: string, text: string) => this.send('POST', `/element/${element}/value`, { text })

  end = () => this.send('DELETE', '')
}

async function command<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    // A stalled driver fails the step that stalled, with its command, rather than the whole test.
    signal: AbortSignal.timeout(60_000),
  })
  const payload = (await response.json()) as { value: T & { error?: string; message?: string } }
  if (!response.ok) throw new Error(`${method} ${url}: ${payload.value?.error} ${payload.value?.message}`)
  return payload.value
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  for (;;) {
    try {
      const value = await check()
      if (value !== undefined && value !== false) return value
    } catch (error) {
      last = error
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
