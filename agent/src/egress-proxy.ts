// The only way a web scanner reaches the network (decision 0034): an HTTP proxy on this host's
// loopback, started for one run, that the scanner is pointed at. Every request, the first, each
// one a crawl or a redirect leads to, and every CONNECT for https, is checked against the job's
// scope and the guard's pinned addresses, then connected to the pinned address itself: the
// scanner resolves nothing, so DNS rebinding and parser differences cannot move it elsewhere.
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { jobTargetAllowed, type JobScopeEntry } from '#domain/agent-scope.ts'
import type { TargetGuard } from './scope.ts'

export interface EgressProxy {
  /** The proxy's address, as scanners take it: http://127.0.0.1:<port>/ */
  url: string
  /** What was refused, in words (the first 100), for the job's log. */
  refused: string[]
  close(): Promise<void>
}

// Hop-by-hop headers (RFC 9110 section 7.6.1) and the proxy's own are not forwarded.
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade'])

export async function startEgressProxy(
  guard: TargetGuard,
  scope: readonly JobScopeEntry[],
  log: (line: string) => void,
): Promise<EgressProxy> {
  const refused: string[] = []
  // Tunnels leave the HTTP server's books once connected: they are closed with the proxy by hand.
  const tunnels = new Set<Duplex>()
  const refuse = (reason: string) => {
    if (refused.length < 100) refused.push(reason)
    log(`egress refused: ${reason}`)
  }

  /** The address to connect to for `url`, or why not. */
  const destination = async (url: URL): Promise<{ address: string } | { refusal: string }> => {
    if (!jobTargetAllowed(url.href, scope)) return { refusal: `${url.href} is outside the job's scope` }
    const verdict = await guard.host(url.hostname.replace(/^\[|\]$/g, ''))
    return 'refusal' in verdict ? verdict : { address: verdict.addresses[0]! }
  }

  const server = http.createServer((request, response) => {
    void (async () => {
      let url: URL
      try {
        url = new URL(request.url ?? '')
      } catch {
        response.writeHead(400).end('The agent proxies absolute http:// requests only.')
        return
      }
      if (url.protocol !== 'http:') {
        response.writeHead(400).end('The agent proxies http:// requests; https goes through CONNECT.')
        return
      }
      const to = await destination(url)
      if ('refusal' in to) {
        refuse(to.refusal)
        response.writeHead(403, { 'content-type': 'text/plain' }).end(`Refused by the scanning agent: ${to.refusal}`)
        return
      }
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)))
      const upstream = http.request(
        {
          host: to.address,
          port: Number(url.port || 80),
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers,
          setHost: false,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        },
      )
      upstream.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' })
        response.end(`The agent could not reach ${url.host}: ${error.message}`)
      })
      request.pipe(upstream)
    })()
  })

  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    void (async () => {
      let url: URL
      try {
        url = new URL(`https://${request.url ?? ''}/`)
      } catch {
        client.end('HTTP/1.1 400 Bad Request\r\n\r\n')
        return
      }
      const to = await destination(url)
      if ('refusal' in to) {
        refuse(to.refusal)
        client.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nRefused by the scanning agent\r\n')
        return
      }
      tunnels.add(client)
      client.on('close', () => tunnels.delete(client))
      const upstream = net.connect(Number(url.port || 443), to.address, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        if (head.length) upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
      client.on('error', () => upstream.destroy())
      client.on('close', () => upstream.destroy())
    })()
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        for (const tunnel of tunnels) tunnel.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
