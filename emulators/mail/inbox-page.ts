// Server-rendered web inbox. Every mail-derived string goes through escapeHtml; /inbox.js only
// swaps in fragments of pages rendered here, so there is a single place where escaping happens.
import type { CaughtMessage } from './message-store.ts'
import { trimUrl } from './message-store.ts'

export type InboxTab = 'html' | 'text' | 'headers'

export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')
}

export function parseTab(value: string | null): InboxTab | undefined {
  return value === 'html' || value === 'text' || value === 'headers' ? value : undefined
}

function pageUrl(id: string | undefined, tab: InboxTab | undefined): string {
  const params = new URLSearchParams()
  if (id !== undefined) params.set('id', id)
  if (tab !== undefined) params.set('tab', tab)
  const query = params.toString()
  return query ? `/?${query}` : '/'
}

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/** Local time of the machine (the catcher runs on the developer's machine). */
function formatTime(iso: string, now: Date): string {
  const d = new Date(iso)
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return sameDay ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Escapes text and turns http(s) URLs in it into links. */
function linkify(text: string): string {
  let out = ''
  let last = 0
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s<>"'`]+/gi)) {
    const url = trimUrl(match[0])
    const start = match.index
    out += escapeHtml(text.slice(last, start))
    out += `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`
    last = start + url.length
  }
  return out + escapeHtml(text.slice(last))
}

function renderList(messages: CaughtMessage[], selectedId: string | undefined, tab: InboxTab | undefined, now: Date): string {
  if (messages.length === 0) {
    return '<p class="empty">No messages yet. Mail sent to the SMTP port shows up here.</p>'
  }
  const items = messages.map((m) => {
    const current = m.id === selectedId ? ' aria-current="true"' : ''
    const sender = m.fromName || m.from || '(no sender)'
    const recipients = m.to.length > 0 ? m.to : m.envelope.to
    return `<li><a class="item" data-nav data-key="msg-${escapeHtml(m.id)}" href="${escapeHtml(pageUrl(m.id, tab))}"${current}>
<span class="row"><span class="from">${escapeHtml(sender)}</span><time datetime="${escapeHtml(m.receivedAt)}">${escapeHtml(formatTime(m.receivedAt, now))}</time></span>
<span class="subject">${escapeHtml(m.subject || '(no subject)')}</span>
<span class="to">to ${escapeHtml(recipients.join(', ') || '(no recipient)')}</span>
</a></li>`
  })
  return `<ul>${items.join('\n')}</ul>`
}

function renderDetail(
  message: CaughtMessage | undefined,
  requestedId: string | undefined,
  requestedTab: InboxTab | undefined,
  now: Date,
): string {
  if (!message) {
    const text = requestedId === undefined ? 'Select a message.' : 'This message no longer exists.'
    return `<p class="empty">${text}</p>`
  }
  const tab: InboxTab = requestedTab ?? (message.html !== null ? 'html' : 'text')
  const id = escapeHtml(message.id)
  const tabs = (['html', 'text', 'headers'] as const)
    .map((t) => {
      const label = t === 'html' ? 'HTML' : t === 'text' ? 'Text' : 'Headers'
      const current = t === tab ? ' aria-current="page"' : ''
      return `<a data-nav data-key="tab-${t}" href="${escapeHtml(pageUrl(message.id, t))}"${current}>${label}</a>`
    })
    .join('')

  let body: string
  if (tab === 'html') {
    body =
      message.html === null
        ? '<p class="empty">This message has no HTML part.</p>'
        : `<iframe title="HTML body of the message" src="/api/messages/${encodeURIComponent(message.id)}/html" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer"></iframe>`
  } else if (tab === 'text') {
    body =
      message.text === null ? '<p class="empty">This message has no text part.</p>' : `<pre class="text">${linkify(message.text)}</pre>`
  } else {
    const rows = message.headers.map((h) => `<tr><th scope="row">${escapeHtml(h.name)}</th><td>${escapeHtml(h.value)}</td></tr>`).join('\n')
    body = `<div class="headers"><table>${rows}</table></div>`
  }

  const meta: [string, string][] = [
    ['From', message.fromName ? `${message.fromName} <${message.from}>` : message.from],
    ['To', message.to.join(', ')],
  ]
  if (message.cc.length > 0) meta.push(['Cc', message.cc.join(', ')])
  const envelopeOnly = message.envelope.to.filter((a) => !message.to.concat(message.cc).some((b) => b.toLowerCase() === a.toLowerCase()))
  if (envelopeOnly.length > 0) meta.push(['Bcc', envelopeOnly.join(', ')])
  meta.push(['Date', `${formatTime(message.date, now)} (received ${formatTime(message.receivedAt, now)}, ${formatSize(message.size)})`])
  if (message.attachments.length > 0) {
    meta.push([
      'Attachments',
      message.attachments.map((a) => `${a.filename ?? '(unnamed)'} (${a.mimeType}, ${formatSize(a.size)})`).join(', '),
    ])
  }
  const metaHtml = meta.map(([k, v]) => `<dt>${k}</dt><dd>${escapeHtml(v)}</dd>`).join('')

  return `<header class="detail-head">
<div class="title-row"><h2>${escapeHtml(message.subject || '(no subject)')}</h2>
<div class="actions"><a class="button" href="/api/messages/${id}/raw" target="_blank" rel="noopener">Source</a>
<button type="button" class="button" data-delete="${id}">Delete</button></div></div>
<dl>${metaHtml}</dl>
<nav class="tabs" aria-label="Message view">${tabs}</nav>
</header>
<div class="body">${body}</div>`
}

export function renderInboxPage(options: {
  messages: CaughtMessage[]
  id: string | undefined
  tab: InboxTab | undefined
  smtpUrl: string
  version: number
  now?: Date
}): string {
  const { messages, id, tab, smtpUrl, version } = options
  const now = options.now ?? new Date()
  // without an explicit id the newest message is shown, and follows new arrivals
  const selected = id === undefined ? messages[0] : messages.find((m) => m.id === id)
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`
  const detailKey = `${selected?.id ?? 'none'}:${tab ?? ''}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${messages.length > 0 ? `(${messages.length}) ` : ''}Mail catcher</title>
<link rel="stylesheet" href="/inbox.css">
<script src="/inbox.js" defer></script>
</head>
<body data-version="${version}">
<header class="top">
<h1>Mail catcher</h1>
<p class="smtp">SMTP <code>${escapeHtml(smtpUrl)}</code></p>
<p class="count" id="count" role="status">${count}</p>
<button type="button" class="button" id="clear"${messages.length === 0 ? ' disabled' : ''}>Clear</button>
</header>
<main>
<nav class="list" id="list" aria-label="Messages">${renderList(messages, selected?.id, tab, now)}</nav>
<section class="detail" id="detail" aria-label="Selected message" data-key="${escapeHtml(detailKey)}">${renderDetail(selected, id, tab, now)}</section>
</main>
</body>
</html>
`
}
