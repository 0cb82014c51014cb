// Counting the Firestore document reads a page view costs, the way Firestore bills them: a proxy in
// front of the Firestore emulator that the app (its edge and the browser) is pointed at, which
// passes every byte through unchanged and counts the documents in what comes back.
//   Listeners and one-off gets (the browser's Listen channel): one read per document sent for a
//     target (added or changed); a target that becomes current without any costs one (the minimum
//     of a query, or the read of a missing document).
//   The edge's REST reads: a get costs one (found or not), a batchGet one per document asked, a
//     list or runQuery one per document returned and at least one.
//   Aggregations (runAggregationQuery): one per 1,000 index entries counted, at least one.
// Not on the wire, so not counted: reads by security rules (get()/exists(), billed once per
// document per request) and reads by Cloud Functions the page calls.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReadCounts {
  total: number
  /** Collection (ids as *: companies/*\/findings) → reads. */
  byCollection: Map<string, number>
  /** Who asked: the browser (Listen channel, or a request with an Origin) or the edge (REST). */
  bySource: { browser: number; edge: number }
  /** Queries, listens and gets answered: each may add rules reads in production. */
  requests: number
}

export interface ReadCounter {
  /** host:port to give the app as its Firestore emulator. */
  host: string
  reset(): void
  counts(): ReadCounts
  /** Milliseconds since the last read was counted. */
  quietFor(): number
  close(): Promise<void>
}

const DOCUMENTS = '/databases/(default)/documents/'

/** companies/acme/findings/x → companies/*\/findings (the collection a document or query is of). */
export function collectionOf(name: string): string {
  const at = name.indexOf(DOCUMENTS)
  const segments = (at >= 0 ? name.slice(at + DOCUMENTS.length) : name).split('/').filter(Boolean)
  return segments
    .slice(0, segments.length % 2 === 0 ? -1 : undefined)
    .map((segment, i) => (i % 2 === 1 ? '*' : segment))
    .join('/')
}

interface ListenTarget {
  label: string
  documents: number
  current: boolean
}

/** The WebChannel framing the Listen channel answers in: `<length>\n<JSON array>` repeated; length in UTF-16 units. */
export class ChannelFrames {
  private text = ''
  private readonly decoder = new TextDecoder()
  push(bytes: Uint8Array, onMessage: (message: unknown) => void): void {
    this.text += this.decoder.decode(bytes, { stream: true })
    for (;;) {
      const newline = this.text.indexOf('\n')
      if (newline < 0) return
      const length = Number(this.text.slice(0, newline))
      if (!Number.isInteger(length) || this.text.length < newline + 1 + length) return
      const frame = this.text.slice(newline + 1, newline + 1 + length)
      this.text = this.text.slice(newline + 1 + length)
      let parsed: unknown
      try {
        parsed = JSON.parse(frame)
      } catch {
        continue
      }
      // Each frame: [[arrayId, [message, ...]], ...]
      if (Array.isArray(parsed))
        for (const entry of parsed)
          if (Array.isArray(entry) && Array.isArray(entry[1])) for (const message of entry[1] as unknown[]) onMessage(message)
    }
  }
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Starts the counter on `port` (0: any free port), in front of the emulator at `target` (host:port). */
export async function startReadCounter(target: string, port = 0): Promise<ReadCounter> {
  const [targetHost, targetPort] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))]
  let counts: ReadCounts
  let lastRead = Date.now()
  // Listen sessions (the channel's SID) → target id → what it asked for and got.
  const sessions = new Map<string, Map<number, ListenTarget>>()
  const reset = () => {
    counts = { total: 0, byCollection: new Map(), bySource: { browser: 0, edge: 0 }, requests: 0 }
    lastRead = Date.now()
  }
  reset()
  const count = (collection: string, source: 'browser' | 'edge', n = 1) => {
    if (n <= 0) return
    counts.total += n
    counts.byCollection.set(collection, (counts.byCollection.get(collection) ?? 0) + n)
    counts.bySource[source] += n
    lastRead = Date.now()
  }

  /** The forward channel's requests (form fields req<n>___data__): which target asks for what. */
  const addTargets = (sid: string, body: string) => {
    const targets = sessions.get(sid) ?? new Map<number, ListenTarget>()
    sessions.set(sid, targets)
    for (const [key, value] of new URLSearchParams(body)) {
      if (!/^req\d+___data__$/.test(key)) continue
      let request: unknown
      try {
        request = JSON.parse(value)
      } catch {
        continue
      }
      if (!isObject(request) || !isObject(request.addTarget)) continue
      const add = request.addTarget
      const id = Number(add.targetId)
      let label = '?'
      if (isObject(add.query)) {
        const from = (isObject(add.query.structuredQuery) ? add.query.structuredQuery.from : undefined) as
          { collectionId?: string }[] | undefined
        label = collectionOf(`${String(add.query.parent)}/${from?.[0]?.collectionId ?? '?'}/x`)
      } else if (isObject(add.documents)) label = collectionOf(String((add.documents.documents as string[] | undefined)?.[0] ?? '?'))
      targets.set(id, { label, documents: 0, current: false })
      counts.requests++
    }
  }

  const onListenMessage = (sid: string, message: unknown) => {
    if (!isObject(message)) return
    const targets = sessions.get(sid) ?? new Map<number, ListenTarget>()
    sessions.set(sid, targets)
    if (isObject(message.documentChange)) {
      const change = message.documentChange
      const ids = (change.targetIds as number[] | undefined) ?? []
      if (ids.length === 0) return
      const name = isObject(change.document) ? String(change.document.name) : '?'
      count(collectionOf(name), 'browser')
      for (const id of ids) {
        const t = targets.get(id)
        if (t) t.documents++
      }
    } else if (isObject(message.targetChange)) {
      const change = message.targetChange
      if (change.targetChangeType !== 'CURRENT') return
      for (const id of (change.targetIds as number[] | undefined) ?? []) {
        const t = targets.get(id)
        if (!t || t.current) continue
        t.current = true
        if (t.documents === 0) count(t.label, 'browser')
      }
    }
  }

  /** A REST answer of the emulator: what it cost. */
  const onRest = (method: string, path: string, status: number, body: string, source: 'browser' | 'edge') => {
    const url = new URL(path, 'http://x')
    const at = url.pathname.indexOf('/documents')
    if (at < 0 || status >= 500) return
    const rest = decodeURIComponent(url.pathname.slice(at + '/documents'.length))
    let parsed: unknown
    try {
      parsed = body ? JSON.parse(body) : null
    } catch {
      parsed = null
    }
    const list = Array.isArray(parsed) ? (parsed as Json[]) : []
    if (rest.endsWith(':runQuery')) {
      counts.requests++
      const docs = list.filter((e) => isObject(e.document))
      if (docs.length === 0) count('(empty query)', source)
      for (const e of docs) count(collectionOf(String((e.document as Json).name)), source)
    } else if (rest.endsWith(':runAggregationQuery')) {
      counts.requests++
      const result = list.find((e) => isObject(e.result))?.result as Json | undefined
      const fields = (result?.aggregateFields ?? {}) as Record<string, { integerValue?: string }>
      const entries = Math.max(0, ...Object.values(fields).map((f) => Number(f.integerValue ?? 0)))
      count('(aggregation)', source, Math.max(1, Math.ceil(entries / 1000)))
    } else if (rest.endsWith(':batchGet')) {
      counts.requests++
      for (const e of list) count(collectionOf(String(isObject(e.found) ? e.found.name : e.missing)), source)
    } else if (method === 'GET' && !rest.includes(':')) {
      counts.requests++
      const segments = rest.split('/').filter(Boolean)
      if (segments.length % 2 === 0) count(collectionOf(rest), source)
      else {
        const docs = isObject(parsed) && Array.isArray(parsed.documents) ? (parsed.documents as Json[]) : []
        count(collectionOf(`${rest}/x`), source, Math.max(1, docs.length))
      }
    }
  }

  const server = http.createServer((request, response) => {
    const path = request.url ?? '/'
    const listen = path.includes('/google.firestore.v1.Firestore/Listen/channel')
    const source: 'browser' | 'edge' = listen || request.headers.origin ? 'browser' : 'edge'
    const sid = new URL(path, 'http://x').searchParams.get('SID') ?? ''
    const requestBody: Buffer[] = []
    const upstream = http.request(
      { host: targetHost, port: targetPort, method: request.method, path, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        response.flushHeaders()
        const frames = listen ? new ChannelFrames() : null
        // The forward channel's first request opens the session: its SID comes back in the answer.
        let openedSid = sid
        const restBody: Buffer[] = []
        answer.on('data', (chunk: Buffer) => {
          response.write(chunk)
          if (frames)
            frames.push(chunk, (message) => {
              if (Array.isArray(message) && message[0] === 'c' && typeof message[1] === 'string' && !openedSid) {
                openedSid = message[1]
                if (requestBody.length > 0) addTargets(openedSid, Buffer.concat(requestBody).toString('utf8'))
                return
              }
              onListenMessage(openedSid, message)
            })
          else restBody.push(chunk)
        })
        answer.on('end', () => {
          response.end()
          if (!listen) onRest(request.method ?? 'GET', path, answer.statusCode ?? 0, Buffer.concat(restBody).toString('utf8'), source)
        })
        answer.on('error', () => response.destroy())
      },
    )
    upstream.on('error', () => {
      // The browser reads it as the emulator's own failure (it retries), not as a refusal of this origin.
      const origin = request.headers.origin
      if (!response.headersSent) response.writeHead(502, origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {})
      response.end()
    })
    request.on('data', (chunk: Buffer) => {
      if (listen && request.method === 'POST') requestBody.push(chunk)
      upstream.write(chunk)
    })
    request.on('end', () => {
      upstream.end()
      if (listen && request.method === 'POST' && sid) addTargets(sid, Buffer.concat(requestBody).toString('utf8'))
    })
    response.on('close', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const { port: bound } = server.address() as AddressInfo
  return {
    host: `127.0.0.1:${bound}`,
    reset,
    counts: () => ({ ...counts, byCollection: new Map(counts.byCollection), bySource: { ...counts.bySource } }),
    quietFor: () => Date.now() - lastRead,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** "2,031 (browser 2,012, edge 19; 14 requests): companies/*\/findings 2,000, ..." */
export function formatReads(reads: ReadCounts): string {
  const parts = [...reads.byCollection]
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([collection, n]) => `${collection} ${n.toLocaleString('en-GB')}`)
  const f = (n: number) => n.toLocaleString('en-GB')
  return `${f(reads.total)} (browser ${f(reads.bySource.browser)}, edge ${f(reads.bySource.edge)}; ${f(reads.requests)} queries and gets): ${parts.join(', ')}`
}
