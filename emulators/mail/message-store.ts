// In-memory store of the messages the mail catcher received: parsing, filtering, long-poll waiters.
import PostalMime from 'postal-mime'
import type { Address, Email, Mailbox } from 'postal-mime'

export type MessageHeader = { name: string; value: string }

export type AttachmentSummary = {
  filename: string | null
  mimeType: string
  size: number
  contentId: string | null
}

/** A received message as the JSON API returns it (`GET /api/messages/:id`). */
export type CaughtMessage = {
  id: string
  /** When the catcher received it (ISO 8601). `after` in `/api/wait` compares with this. */
  receivedAt: string
  /** The Date header (ISO 8601), or `receivedAt` when the header is missing or invalid. */
  date: string
  /** Address of the From header (the envelope sender when there is no From header). */
  from: string
  fromName: string
  /** Addresses of the To header. */
  to: string[]
  /** Addresses of the Cc header. */
  cc: string[]
  /** SMTP envelope: MAIL FROM and every RCPT TO (Bcc recipients only appear here). */
  envelope: { from: string; to: string[] }
  subject: string
  text: string | null
  html: string | null
  /** Every http(s) URL found in the HTML hrefs and in the text body, HTML entities decoded. */
  links: string[]
  headers: MessageHeader[]
  attachments: AttachmentSummary[]
  /** Size of the raw message in bytes. */
  size: number
}

/** The summary that the list endpoint returns (`GET /api/messages`). */
export type MessageSummary = Pick<CaughtMessage, 'id' | 'receivedAt' | 'date' | 'from' | 'fromName' | 'to' | 'cc' | 'subject' | 'size'> & {
  hasHtml: boolean
  attachmentCount: number
}

export type MessageFilter = {
  /** Matches To, Cc and envelope recipients, case-insensitively. */
  to?: string | undefined
  /** Only messages received strictly after this time (ms since epoch). */
  after?: number | undefined
}

type StoredMessage = { message: CaughtMessage; raw: Buffer; receivedMs: number }

export type StoreEvent = { type: 'add'; message: CaughtMessage } | { type: 'delete'; id: string } | { type: 'clear' }

export type StoreOptions = { maxMessages?: number; maxBytes?: number }

export class MessageStore {
  // newest last
  #messages: StoredMessage[] = []
  #bytes = 0
  #nextId = 1
  #lastReceivedMs = 0
  #listeners = new Set<(event: StoreEvent) => void>()
  #maxMessages: number
  #maxBytes: number
  /** Increments on every change; the inbox page uses it to know when to refresh. */
  version = 0

  constructor(options: StoreOptions = {}) {
    this.#maxMessages = options.maxMessages ?? 500
    this.#maxBytes = options.maxBytes ?? 200 * 1024 * 1024
  }

  get size(): number {
    return this.#messages.length
  }

  /** Parses a raw RFC 5322 message and stores it. */
  async addRaw(raw: Buffer, envelope: { from: string; to: string[] }): Promise<CaughtMessage> {
    let email: Email | null = null
    try {
      email = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' })
    } catch {
      email = null // keep unparseable mail too: the raw source is still useful
    }
    // receivedAt strictly increases, so `after=<receivedAt of a message>` never returns that message
    const receivedMs = Math.max(Date.now(), this.#lastReceivedMs + 1)
    this.#lastReceivedMs = receivedMs
    const message = toCaughtMessage(String(this.#nextId++), receivedMs, raw, envelope, email)
    this.#messages.push({ message, raw, receivedMs })
    this.#bytes += raw.length
    while (this.#messages.length > 1 && (this.#messages.length > this.#maxMessages || this.#bytes > this.#maxBytes)) {
      const evicted = this.#messages.shift()
      if (evicted) this.#bytes -= evicted.raw.length
    }
    this.#emit({ type: 'add', message })
    return message
  }

  /** Newest first. */
  list(filter: MessageFilter = {}): CaughtMessage[] {
    const out: CaughtMessage[] = []
    for (let i = this.#messages.length - 1; i >= 0; i--) {
      const stored = this.#messages[i]
      if (stored && matches(stored, filter)) out.push(stored.message)
    }
    return out
  }

  get(id: string): CaughtMessage | undefined {
    return this.#messages.find((m) => m.message.id === id)?.message
  }

  raw(id: string): Buffer | undefined {
    return this.#messages.find((m) => m.message.id === id)?.raw
  }

  delete(id: string): boolean {
    const index = this.#messages.findIndex((m) => m.message.id === id)
    if (index < 0) return false
    const [removed] = this.#messages.splice(index, 1)
    if (removed) this.#bytes -= removed.raw.length
    this.#emit({ type: 'delete', id })
    return true
  }

  clear(): void {
    this.#messages = []
    this.#bytes = 0
    this.#emit({ type: 'clear' })
  }

  /** The newest message that matches, or undefined. */
  newest(filter: MessageFilter): CaughtMessage | undefined {
    for (let i = this.#messages.length - 1; i >= 0; i--) {
      const stored = this.#messages[i]
      if (stored && matches(stored, filter)) return stored.message
    }
    return undefined
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #emit(event: StoreEvent): void {
    this.version++
    for (const listener of [...this.#listeners]) listener(event)
  }
}

export function summarize(message: CaughtMessage): MessageSummary {
  return {
    id: message.id,
    receivedAt: message.receivedAt,
    date: message.date,
    from: message.from,
    fromName: message.fromName,
    to: message.to,
    cc: message.cc,
    subject: message.subject,
    size: message.size,
    hasHtml: message.html !== null,
    attachmentCount: message.attachments.length,
  }
}

function matches(stored: StoredMessage, filter: MessageFilter): boolean {
  if (filter.after !== undefined && !(stored.receivedMs > filter.after)) return false
  if (filter.to !== undefined && filter.to !== '') {
    const wanted = filter.to.trim().toLowerCase()
    const { message } = stored
    const all = [...message.to, ...message.cc, ...message.envelope.to]
    if (!all.some((address) => address.toLowerCase() === wanted)) return false
  }
  return true
}

function toCaughtMessage(
  id: string,
  receivedMs: number,
  raw: Buffer,
  envelope: { from: string; to: string[] },
  email: Email | null,
): CaughtMessage {
  const receivedAt = new Date(receivedMs).toISOString()
  const headerDate = email?.date ? Date.parse(email.date) : Number.NaN
  const from = email?.from ? flatten([email.from])[0] : undefined
  const text = email?.text ?? null
  const html = email?.html ?? null
  return {
    id,
    receivedAt,
    date: Number.isNaN(headerDate) ? receivedAt : new Date(headerDate).toISOString(),
    from: from?.address ?? envelope.from,
    fromName: from?.name ?? '',
    to: flatten(email?.to).map((m) => m.address),
    cc: flatten(email?.cc).map((m) => m.address),
    envelope,
    subject: email?.subject ?? '',
    text,
    html,
    links: extractLinks(html, text),
    headers: (email?.headers ?? []).map((h) => ({ name: h.originalKey, value: h.value })),
    attachments: (email?.attachments ?? []).map((a) => ({
      filename: a.filename,
      mimeType: a.mimeType,
      size: typeof a.content === 'string' ? a.content.length : a.content.byteLength,
      contentId: a.contentId ?? null,
    })),
    size: raw.length,
  }
}

function flatten(addresses: Address[] | undefined): Mailbox[] {
  const out: Mailbox[] = []
  for (const entry of addresses ?? []) {
    if (entry.group) out.push(...entry.group)
    else if (entry.address !== undefined) out.push({ name: entry.name, address: entry.address })
  }
  return out
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi

/** Strips punctuation that usually ends a sentence rather than a URL. */
export function trimUrl(url: string): string {
  return url.replace(/[.,;:!?)\]}>]+$/, '')
}

export function extractLinks(html: string | null, text: string | null): string[] {
  const links = new Set<string>()
  if (html) {
    for (const match of html.matchAll(HREF)) {
      const href = decodeEntities((match[1] ?? match[2] ?? match[3] ?? '').trim())
      if (/^https?:\/\//i.test(href)) links.add(href)
    }
  }
  if (text) {
    for (const match of text.matchAll(URL_IN_TEXT)) links.add(trimUrl(match[0]))
  }
  return [...links]
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity
  })
}
