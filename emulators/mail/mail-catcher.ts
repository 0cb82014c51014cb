// Local mail catcher: an SMTP server that keeps every message in memory, and a small HTTP server
// with a JSON API (for tests) and a web inbox (for people). Nothing is ever delivered.
//
//   node --experimental-strip-types emulators/mail/mail-catcher.ts
//   env: MAIL_SMTP_PORT (1025), MAIL_HTTP_PORT (1080), MAIL_HOST (127.0.0.1)
//
// HTTP API (JSON unless stated):
//   GET    /api/messages[?to=address]     summaries, newest first
//   GET    /api/messages/:id              the full message (text, html, headers, links, ...)
//   GET    /api/messages/:id/html         the HTML body, under a CSP that blocks scripts
//   GET    /api/messages/:id/raw          the raw RFC 5322 source (text/plain)
//   DELETE /api/messages                  delete all
//   DELETE /api/messages/:id              delete one
//   GET    /api/wait?to=&after=&timeout=  long-poll: the newest message for `to` received after
//                                         `after` (ISO date or ms since epoch); 408 on timeout
//   GET    /api/events                    Server-Sent Events, `change` with the store version
//   GET    /                              the web inbox
import { readFileSync, realpathSync } from 'node:fs'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { SMTPServer } from 'smtp-server'
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server'
import { parseTab, renderInboxPage } from './inbox-page.ts'
import { MessageStore, summarize } from './message-store.ts'
import type { MessageFilter } from './message-store.ts'
import { isAllowedHost, PortListenError, portListenError, stopOnSignals, urlHost } from '../local-service.ts'

export type { CaughtMessage, MessageSummary } from './message-store.ts'

export type MailCatcherOptions = {
  /** 0 picks a free port; the actual one is in the returned URLs. Default 1025. */
  smtpPort?: number
  /** 0 picks a free port; the actual one is in the returned URLs. Default 1080. */
  httpPort?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Oldest messages are dropped beyond this count. Default 500. */
  maxMessages?: number
}

export type MailCatcher = {
  /** e.g. smtp://127.0.0.1:1025 */
  smtpUrl: string
  /** e.g. http://127.0.0.1:1080 (no trailing slash: `${inboxUrl}/api/messages`) */
  inboxUrl: string
  host: string
  smtpPort: number
  httpPort: number
  close(): Promise<void>
}

/** The HTML endpoint's policy: mail content never runs scripts or loads anything remote. */
export const MAIL_HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'self'"
const INBOX_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const MAX_MESSAGE_BYTES = 25 * 1024 * 1024
const DEFAULT_WAIT_MS = 10_000
const MAX_WAIT_MS = 300_000

/** A port could not be opened (the error the dev launcher prints in one line). */
export { PortListenError as MailCatcherListenError } from '../local-service.ts'

const listenError = (err: NodeJS.ErrnoException, host: string, port: number, portVariable: string) =>
  portListenError(err, host, port, { portVariable, hostVariable: 'MAIL_HOST' })

const staticFiles = new Map<string, { type: string; body: Buffer }>([
  ['/inbox.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./inbox/inbox.js', import.meta.url)) }],
  ['/inbox.css', { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./inbox/inbox.css', import.meta.url)) }],
])

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1'
  const store = new MessageStore({ maxMessages: options.maxMessages ?? 500 })

  let accepting = true
  const smtp = new SMTPServer({
    name: 'mail-catcher',
    banner: 'local mail catcher: nothing is delivered',
    logger: false,
    // no TLS locally; AUTH with any credentials is accepted, so a production-like config works too
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    closeTimeout: 500, // idle SMTP clients get this long before they are cut off on close()
    // An outage on request (PUT /api/smtp): every new connection is turned away with 421, which
    // is what a mail server that is down for maintenance answers.
    onConnect(_session, callback) {
      if (accepting) return callback()
      callback(Object.assign(new Error('Service not available (outage switched on in the inbox)'), { responseCode: 421 }))
    },
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' })
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', (err: Error) => callback(err))
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 }))
          return
        }
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        }
        store.addRaw(Buffer.concat(chunks), envelope).then(
          (message) => callback(null, `Caught as ${message.id}`),
          (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
        )
      })
    },
  })
  // client-side errors (dropped connections and the like) must not crash the process
  let listening = false
  smtp.on('error', (err: Error) => {
    if (listening) console.error(`mail catcher: SMTP: ${err.message}`)
  })

  const requestedSmtpPort = options.smtpPort ?? 1025
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(listenError(err, host, requestedSmtpPort, 'MAIL_SMTP_PORT'))
    smtp.server.once('error', onError)
    smtp.listen(requestedSmtpPort, host, () => {
      smtp.server.off('error', onError)
      listening = true
      resolve()
    })
  })
  const smtpPort = (smtp.server.address() as AddressInfo).port
  const smtpUrl = `smtp://${urlHost(host)}:${smtpPort}`

  const closeSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()))

  // long-polls and event streams, ended on close()
  const pending = new Set<() => void>()
  let closing: Promise<void> | undefined

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error(`mail catcher: ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`)
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal error' })
      else res.destroy()
    })
  })

  const requestedHttpPort = options.httpPort ?? 1080
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, requestedHttpPort, 'MAIL_HTTP_PORT')))
      http.listen(requestedHttpPort, host, () => resolve())
    })
  } catch (err) {
    await closeSmtp()
    throw err
  }
  http.on('error', (err: Error) => console.error(`mail catcher: HTTP: ${err.message}`))
  const httpPort = (http.address() as AddressInfo).port
  const inboxUrl = `http://${urlHost(host)}:${httpPort}`

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cache-Control', 'no-store')
    if (!isAllowedHost(req.headers.host, host)) {
      // DNS rebinding guard: a web page must not read sign-in links out of the local inbox
      sendJson(res, 421, { error: 'Unexpected Host header: use an IP address or localhost' })
      return
    }
    const url = new URL(req.url ?? '/', 'http://catcher.invalid')
    const path = url.pathname
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
    let parts: string[]
    try {
      parts = path.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      return sendJson(res, 400, { error: 'Malformed URL' })
    }

    if (path === '/' || path === '/index.html') {
      if (method !== 'GET') return methodNotAllowed(res, 'GET')
      const id = url.searchParams.get('id') ?? undefined
      const html = renderInboxPage({
        messages: store.list(),
        id,
        tab: parseTab(url.searchParams.get('tab')),
        smtpUrl,
        version: store.version,
      })
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': INBOX_CSP })
      res.end(html)
      return
    }
    const file = staticFiles.get(path)
    if (file) {
      if (method !== 'GET') return methodNotAllowed(res, 'GET')
      res.writeHead(200, { 'Content-Type': file.type })
      res.end(file.body)
      return
    }
    if (path === '/favicon.ico') {
      res.writeHead(204)
      res.end()
      return
    }
    if (parts[0] !== 'api') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end('Not found. The inbox is at /\n')
      return
    }

    if (parts.length === 2 && parts[1] === 'messages') {
      if (method === 'GET') {
        const filter = readFilter(url, res)
        if (filter) sendJson(res, 200, store.list(filter).map(summarize))
        return
      }
      if (method === 'DELETE') {
        const count = store.size
        store.clear()
        sendJson(res, 200, { deleted: count })
        return
      }
      return methodNotAllowed(res, 'GET, DELETE')
    }

    if (parts.length >= 3 && parts.length <= 4 && parts[1] === 'messages') {
      const id = parts[2] ?? ''
      const sub = parts[3]
      if (sub === undefined && method === 'DELETE') {
        if (store.delete(id)) sendJson(res, 200, { deleted: 1 })
        else notFound(res, id)
        return
      }
      if (method !== 'GET') return methodNotAllowed(res, sub === undefined ? 'GET, DELETE' : 'GET')
      const message = store.get(id)
      if (!message) return notFound(res, id)
      if (sub === undefined) return sendJson(res, 200, message)
      if (sub === 'html') {
        if (message.html === null) return sendJson(res, 404, { error: `Message ${id} has no HTML part` })
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': MAIL_HTML_CSP })
        res.end(withBaseTarget(message.html))
        return
      }
      if (sub === 'raw') {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" })
        res.end(store.raw(id))
        return
      }
      if (sub === 'text') {
        if (message.text === null) return sendJson(res, 404, { error: `Message ${id} has no text part` })
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" })
        res.end(message.text)
        return
      }
      return sendJson(res, 404, { error: `No such endpoint: ${path}` })
    }

    if (parts.length === 2 && parts[1] === 'smtp') {
      if (method === 'GET') return sendJson(res, 200, { accepting })
      if (method !== 'PUT') return methodNotAllowed(res, 'GET, PUT')
      const body = await readSmall(req)
      let wanted: unknown
      try {
        wanted = (JSON.parse(body) as { accepting?: unknown }).accepting
      } catch {
        wanted = undefined
      }
      if (typeof wanted !== 'boolean') return sendJson(res, 400, { error: 'Send {"accepting": true} or {"accepting": false}' })
      accepting = wanted
      return sendJson(res, 200, { accepting })
    }

    if (parts.length === 2 && parts[1] === 'wait') {
      if (method !== 'GET') return methodNotAllowed(res, 'GET')
      const filter = readFilter(url, res)
      if (!filter) return
      const timeoutParam = url.searchParams.get('timeout')
      const timeout = timeoutParam === null || timeoutParam === '' ? DEFAULT_WAIT_MS : Number(timeoutParam)
      if (!Number.isFinite(timeout) || timeout < 0) {
        return sendJson(res, 400, { error: 'timeout must be a number of milliseconds' })
      }
      const found = store.newest(filter)
      if (found) return sendJson(res, 200, found)
      if (closing) return sendJson(res, 503, { error: 'The mail catcher is shutting down' })
      await waitForMessage(res, filter, Math.min(timeout, MAX_WAIT_MS))
      return
    }

    if (parts.length === 2 && parts[1] === 'events') {
      if (method !== 'GET') return methodNotAllowed(res, 'GET')
      streamEvents(req, res)
      return
    }

    sendJson(res, 404, { error: `No such endpoint: ${path}` })
  }

  function waitForMessage(res: ServerResponse, filter: MessageFilter, timeout: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let done = false
      const finish = (status: number, body: unknown) => {
        if (done) return
        done = true
        clearTimeout(timer)
        unsubscribe()
        pending.delete(shutdown)
        if (!res.writableEnded && !res.destroyed) sendJson(res, status, body)
        resolve()
      }
      const shutdown = () => finish(503, { error: 'The mail catcher is shutting down' })
      const timer = setTimeout(() => {
        const who = filter.to ? ` for ${filter.to}` : ''
        finish(408, { error: `No message${who} arrived within ${timeout} ms` })
      }, timeout)
      const unsubscribe = store.subscribe((event) => {
        if (event.type !== 'add') return
        const match = store.newest(filter)
        if (match) finish(200, match)
      })
      pending.add(shutdown)
      // the client gave up: stop waiting
      res.on('close', () => finish(499, null))
    })
  }

  function streamEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    })
    const send = () => res.write(`event: change\ndata: ${JSON.stringify({ version: store.version, count: store.size })}\n\n`)
    res.write('retry: 2000\n\n')
    send()
    const unsubscribe = store.subscribe(send)
    const heartbeat = setInterval(() => res.write(': ping\n\n'), 25_000)
    heartbeat.unref()
    const end = () => {
      clearInterval(heartbeat)
      unsubscribe()
      pending.delete(end)
      if (!res.writableEnded) res.end()
    }
    pending.add(end)
    req.socket.setTimeout(0)
    res.on('close', end)
  }

  function close(): Promise<void> {
    closing ??= (async () => {
      for (const end of [...pending]) end()
      const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()))
      http.closeAllConnections()
      await Promise.all([httpClosed, closeSmtp()])
    })()
    return closing
  }

  return { smtpUrl, inboxUrl, host, smtpPort, httpPort, close }
}

function readFilter(url: URL, res: ServerResponse): MessageFilter | undefined {
  const to = url.searchParams.get('to') ?? undefined
  const afterParam = url.searchParams.get('after')
  let after: number | undefined
  if (afterParam !== null && afterParam !== '') {
    after = /^\d+$/.test(afterParam) ? Number(afterParam) : Date.parse(afterParam)
    if (Number.isNaN(after)) {
      sendJson(res, 400, { error: 'after must be an ISO date or milliseconds since the epoch' })
      return undefined
    }
  }
  return { to, after }
}

/** Links in the mail open in a new tab instead of inside the sandboxed frame. */
function withBaseTarget(html: string): string {
  const base = '<base target="_blank">'
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)
  if (doctype) return doctype[0] + base + html.slice(doctype[0].length)
  return base + html
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
  res.end(`${JSON.stringify(body, null, 2)}\n`)
}

function notFound(res: ServerResponse, id: string): void {
  sendJson(res, 404, { error: `No message with id ${id}` })
}

/** A request body of at most a few bytes (switches); anything longer is cut. */
async function readSmall(req: IncomingMessage, limit = 256): Promise<string> {
  let text = ''
  for await (const chunk of req) {
    text += String(chunk)
    if (text.length > limit) break
  }
  return text.slice(0, limit)
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow)
  sendJson(res, 405, { error: `Method not allowed; use ${allow}` })
}

function portFromEnv(name: string, fallback: number): number {
  const value = process.env[name]
  if (value === undefined || value.trim() === '') return fallback
  const port = Number(value)
  if (!/^\d+$/.test(value.trim()) || port > 65_535) {
    throw new PortListenError(`${name} must be a port number (0-65535), not "${value}"`, 'EINVAL', Number.NaN)
  }
  return port
}

async function main(): Promise<void> {
  let catcher: MailCatcher
  try {
    catcher = await startMailCatcher({
      smtpPort: portFromEnv('MAIL_SMTP_PORT', 1025),
      httpPort: portFromEnv('MAIL_HTTP_PORT', 1080),
      host: process.env.MAIL_HOST?.trim() || '127.0.0.1',
    })
  } catch (err) {
    console.error(`Mail catcher: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
  stopOnSignals(() => catcher.close())
  // printed once the signal handlers are in place: whoever waits for this line may stop us at once
  console.log(`Mail catcher\n  SMTP   ${catcher.smtpUrl}\n  Inbox  ${catcher.inboxUrl}/`)
}

/** True when this file is the process's entry point (import.meta.main is Node >= 24.2 only). */
function isEntryPoint(): boolean {
  if (typeof import.meta.main === 'boolean') return import.meta.main
  const entry = process.argv[1]
  if (!entry) return false
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  await main()
}
