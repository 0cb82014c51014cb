import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { fileURLToPath } from 'node:url'
import nodemailer from 'nodemailer'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAIL_HTML_CSP, MailCatcherListenError, startMailCatcher } from './mail-catcher.ts'
import type { CaughtMessage, MailCatcher, MessageSummary } from './mail-catcher.ts'

const SCRIPT = fileURLToPath(new URL('./mail-catcher.ts', import.meta.url))

let catcher: MailCatcher

async function send(mail: { to: string | string[]; subject: string; text?: string; html?: string; cc?: string; bcc?: string }) {
  const transport = nodemailer.createTransport({ host: catcher.host, port: catcher.smtpPort, secure: false, ignoreTLS: true })
  try {
    return await transport.sendMail({ from: '"Security Workspace" <no-reply@sectest.test>', ...mail })
  } finally {
    transport.close()
  }
}

async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${catcher.inboxUrl}${path}`, init)
  const text = await response.text()
  const body = (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T
  return { status: response.status, body, headers: response.headers }
}

function occupyPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

function portOf(server: Server): number {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 })
})

afterAll(async () => {
  await catcher.close()
})

beforeEach(async () => {
  await fetch(`${catcher.inboxUrl}/api/messages`, { method: 'DELETE' })
})

describe('mail catcher', () => {
  it('reports the actual ports of an ephemeral start in its URLs', () => {
    expect(catcher.smtpPort).toBeGreaterThan(0)
    expect(catcher.httpPort).toBeGreaterThan(0)
    expect(catcher.smtpUrl).toBe(`smtp://127.0.0.1:${catcher.smtpPort}`)
    expect(catcher.inboxUrl).toBe(`http://127.0.0.1:${catcher.httpPort}`)
  })

  it('catches mail sent over SMTP and returns it parsed', async () => {
    const link = 'http://127.0.0.1:3000/auth/redirect?apiKey=fake&oobCode=abc&mode=signIn'
    const info = await send({
      to: 'Ana Analyst <ana@example.com>',
      subject: 'Sign in to Security Workspace',
      text: `Follow this link to sign in:\n${link}\n`,
      html: `<p><a href="${link.replaceAll('&', '&amp;')}">Sign in</a></p>`,
    })
    expect(info.response).toMatch(/^250 /)

    const list = await api<MessageSummary[]>('/api/messages')
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(1)
    const summary = list.body[0]
    expect(summary).toMatchObject({
      from: 'no-reply@sectest.test',
      fromName: 'Security Workspace',
      to: ['ana@example.com'],
      subject: 'Sign in to Security Workspace',
      hasHtml: true,
    })
    expect(summary).not.toHaveProperty('html')

    const full = await api<CaughtMessage>(`/api/messages/${summary?.id}`)
    expect(full.status).toBe(200)
    expect(full.body.subject).toBe('Sign in to Security Workspace')
    expect(full.body.text).toContain(link)
    expect(full.body.html).toContain('<a href=')
    expect(full.body.to).toEqual(['ana@example.com'])
    expect(full.body.envelope).toEqual({ from: 'no-reply@sectest.test', to: ['ana@example.com'] })
    expect(full.body.links).toEqual([link])
    expect(full.body.headers).toContainEqual({ name: 'Subject', value: 'Sign in to Security Workspace' })
    expect(Date.parse(full.body.receivedAt)).not.toBeNaN()
  })

  it('lists newest first and filters by recipient, case-insensitively, Cc and Bcc included', async () => {
    await send({ to: 'first@example.com', subject: 'one' })
    await send({ to: 'second@example.com', subject: 'two', cc: 'copy@example.com' })
    await send({ to: 'first@example.com', subject: 'three', bcc: 'hidden@example.com' })

    const all = await api<MessageSummary[]>('/api/messages')
    expect(all.body.map((m) => m.subject)).toEqual(['three', 'two', 'one'])

    const first = await api<MessageSummary[]>('/api/messages?to=FIRST@example.com')
    expect(first.body.map((m) => m.subject)).toEqual(['three', 'one'])
    expect((await api<MessageSummary[]>('/api/messages?to=copy@example.com')).body.map((m) => m.subject)).toEqual(['two'])
    expect((await api<MessageSummary[]>('/api/messages?to=hidden@example.com')).body.map((m) => m.subject)).toEqual(['three'])
    expect((await api<MessageSummary[]>('/api/messages?to=nobody@example.com')).body).toEqual([])
  })

  it('turns SMTP connections away with 421 while the outage switch is on, and takes mail again after', async () => {
    const put = (body: string) => api<{ accepting?: boolean; error?: string }>('/api/smtp', { method: 'PUT', body })
    expect((await put('{"accepting": "no"}')).status).toBe(400)
    expect((await put('{"accepting": false}')).body).toEqual({ accepting: false })
    expect((await api<{ accepting: boolean }>('/api/smtp')).body).toEqual({ accepting: false })
    await expect(send({ to: 'down@sectest.test', subject: 'During the outage' })).rejects.toMatchObject({ responseCode: 421 })
    expect((await put('{"accepting": true}')).body).toEqual({ accepting: true })
    await send({ to: 'down@sectest.test', subject: 'After the outage' })
    const caught = await api<MessageSummary[]>('/api/messages?to=down@sectest.test')
    expect(caught.body.map((m) => m.subject)).toEqual(['After the outage'])
  })

  it('wait resolves when a message for the address arrives', async () => {
    await send({ to: 'waiter@example.com', subject: 'old one' })
    const after = Date.now()
    const waiting = api<CaughtMessage>(`/api/wait?to=waiter@example.com&after=${after}&timeout=5000`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    await send({ to: 'someone-else@example.com', subject: 'not this one' })
    await send({ to: 'waiter@example.com', subject: 'your link', text: 'http://127.0.0.1:3000/x' })
    const result = await waiting
    expect(result.status).toBe(200)
    expect(result.body.subject).toBe('your link')
    expect(result.body.links).toEqual(['http://127.0.0.1:3000/x'])
  })

  it('wait returns at once when a matching message is already there, and accepts an ISO date', async () => {
    const before = new Date(Date.now() - 1000).toISOString()
    await send({ to: 'early@example.com', subject: 'already here' })
    const result = await api<CaughtMessage>(`/api/wait?to=early@example.com&after=${encodeURIComponent(before)}&timeout=1`)
    expect(result.status).toBe(200)
    expect(result.body.subject).toBe('already here')
    // `after` a message's receivedAt excludes that message
    const later = await api<{ error: string }>(
      `/api/wait?to=early@example.com&after=${encodeURIComponent(result.body.receivedAt)}&timeout=50`,
    )
    expect(later.status).toBe(408)
  })

  it('wait times out with 408', async () => {
    const started = Date.now()
    const result = await api<{ error: string }>('/api/wait?to=nobody@example.com&timeout=200')
    expect(result.status).toBe(408)
    expect(result.body.error).toContain('nobody@example.com')
    expect(Date.now() - started).toBeGreaterThanOrEqual(150)
  })

  it('rejects malformed wait parameters', async () => {
    expect((await api('/api/wait?after=yesterday')).status).toBe(400)
    expect((await api('/api/wait?timeout=soon')).status).toBe(400)
  })

  it('deletes one message and all messages', async () => {
    await send({ to: 'a@example.com', subject: 'keep' })
    await send({ to: 'b@example.com', subject: 'drop' })
    const list = await api<MessageSummary[]>('/api/messages')
    const drop = list.body.find((m) => m.subject === 'drop')

    expect((await api(`/api/messages/${drop?.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await api(`/api/messages/${drop?.id}`)).status).toBe(404)
    expect((await api(`/api/messages/${drop?.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await api<MessageSummary[]>('/api/messages')).body.map((m) => m.subject)).toEqual(['keep'])

    const cleared = await api<{ deleted: number }>('/api/messages', { method: 'DELETE' })
    expect(cleared.body).toEqual({ deleted: 1 })
    expect((await api<MessageSummary[]>('/api/messages')).body).toEqual([])
  })

  it('serves the HTML body under a CSP that blocks scripts', async () => {
    await send({ to: 'html@example.com', subject: 'html', html: '<p>hi</p><script>alert(1)</script>' })
    const [summary] = (await api<MessageSummary[]>('/api/messages')).body
    const response = await fetch(`${catcher.inboxUrl}/api/messages/${summary?.id}/html`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toBe(MAIL_HTML_CSP)
    expect(csp.startsWith("default-src 'none'; style-src 'unsafe-inline'; img-src data:")).toBe(true)
    expect(csp).not.toContain('script-src')
    expect(await response.text()).toContain('<p>hi</p>')

    await send({ to: 'plain@example.com', subject: 'plain', text: 'only text' })
    const [plain] = (await api<MessageSummary[]>('/api/messages?to=plain@example.com')).body
    expect((await api(`/api/messages/${plain?.id}/html`)).status).toBe(404)
  })

  it('escapes mail-derived text in the inbox page', async () => {
    await send({
      to: 'xss@example.com',
      subject: 'Hi <script>alert("subject")</script>',
      text: 'see <img src=x onerror=alert(1)> https://example.com/a?b=1&c=2',
    })
    const page = await api<string>('/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(page.body).toContain('Hi &lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt;')
    expect(page.body).not.toContain('<script>alert')

    const [message] = (await api<MessageSummary[]>('/api/messages')).body
    const textTab = await api<string>(`/?id=${message?.id}&tab=text`)
    expect(textTab.body).toContain('see &lt;img src=x onerror=alert(1)&gt;')
    expect(textTab.body).toContain('<a href="https://example.com/a?b=1&amp;c=2"')
    expect(textTab.body).not.toContain('<img')
  })

  it('serves the inbox assets and renders an empty inbox', async () => {
    const page = await api<string>('/')
    expect(page.body).toContain('No messages yet')
    expect((await fetch(`${catcher.inboxUrl}/inbox.js`)).headers.get('content-type')).toContain('javascript')
    expect((await fetch(`${catcher.inboxUrl}/inbox.css`)).headers.get('content-type')).toContain('text/css')
  })

  it('refuses requests for a foreign Host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${catcher.inboxUrl}/api/messages`, { headers: { host: 'evil.example:80' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
  })

  it('announces changes over Server-Sent Events', async () => {
    const controller = new AbortController()
    const response = await fetch(`${catcher.inboxUrl}/api/events`, { signal: controller.signal })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let received = ''
    const readUntil = async (needle: string) => {
      while (!received.includes(needle)) {
        const { value, done } = await reader.read()
        if (done) throw new Error('stream ended')
        received += decoder.decode(value, { stream: true })
      }
    }
    await readUntil('"count":0')
    await send({ to: 'sse@example.com', subject: 'live' })
    await readUntil('"count":1')
    controller.abort()
  })
})

describe('mail catcher start-up and shutdown', () => {
  it('says clearly which port is taken', async () => {
    const taken = await occupyPort()
    try {
      const port = portOf(taken)
      await expect(startMailCatcher({ smtpPort: 0, httpPort: port })).rejects.toThrow(
        `Port ${port} is in use: stop what uses it or set MAIL_HTTP_PORT`,
      )
      await expect(startMailCatcher({ smtpPort: port, httpPort: 0 })).rejects.toBeInstanceOf(MailCatcherListenError)
      await expect(startMailCatcher({ smtpPort: port, httpPort: 0 })).rejects.toThrow(
        `Port ${port} is in use: stop what uses it or set MAIL_SMTP_PORT`,
      )
    } finally {
      await closeServer(taken)
    }
  })

  it('releases the SMTP port when the HTTP port is taken', async () => {
    const taken = await occupyPort()
    const free = await occupyPort()
    const smtpPort = portOf(free)
    await closeServer(free)
    try {
      await expect(startMailCatcher({ smtpPort, httpPort: portOf(taken) })).rejects.toThrow('MAIL_HTTP_PORT')
      const again = await startMailCatcher({ smtpPort, httpPort: 0 })
      await again.close()
    } finally {
      await closeServer(taken)
    }
  })

  it('ends pending waits when it closes', async () => {
    const other = await startMailCatcher({ smtpPort: 0, httpPort: 0 })
    const waiting = fetch(`${other.inboxUrl}/api/wait?timeout=10000`).then((r) => r.status)
    await new Promise((resolve) => setTimeout(resolve, 50))
    await other.close()
    expect(await waiting).toBe(503)
  })

  it('CLI: one line and exit code 1 when the port is taken', async () => {
    const taken = await occupyPort()
    try {
      const result = await runCli({ MAIL_SMTP_PORT: '0', MAIL_HTTP_PORT: String(portOf(taken)) })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`Port ${portOf(taken)} is in use: stop what uses it or set MAIL_HTTP_PORT`)
      expect(result.stderr).not.toMatch(/^\s+at /m)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
    } finally {
      await closeServer(taken)
    }
  })

  it('CLI: rejects an invalid port variable', async () => {
    const result = await runCli({ MAIL_SMTP_PORT: 'abc', MAIL_HTTP_PORT: '0' })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe('Mail catcher: MAIL_SMTP_PORT must be a port number (0-65535), not "abc"')
  })

  it('CLI: prints both URLs and stops cleanly on SIGTERM', async () => {
    const result = await runCli({ MAIL_SMTP_PORT: '0', MAIL_HTTP_PORT: '0' }, 'SIGTERM')
    expect(result.stdout).toMatch(/SMTP\s+smtp:\/\/127\.0\.0\.1:\d+/)
    expect(result.stdout).toMatch(/Inbox\s+http:\/\/127\.0\.0\.1:\d+\//)
    expect(result.code).toBe(0)
    expect(result.stderr.trim()).toBe('')
  })
})

function runCli(env: Record<string, string>, signal?: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', SCRIPT], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (signal && stdout.includes('Inbox')) child.kill(signal)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
