// A real wapiti run through the agent (runJob) against a loopback site in scope whose pages redirect
// elsewhere: to a loopback address the scope does not name, and to a name in the scope that
// resolves there (answered by a DNS server this test starts). wapiti follows the redirect of its
// start page, so without the egress proxy it would reach the forbidden server; with it, every
// request is checked and the forbidden server is never reached. Only loopback is used.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JobSpec } from '#domain/agent-api.ts'
import { startDnsServer, type DnsServer } from '../../tests/fixtures/dns-server/server.ts'
import { runJob } from './scanners.ts'
import { dnsResolver, TargetGuard } from './scope.ts'

let dns: DnsServer
let site: http.Server
let forbidden: http.Server
const siteHits: string[] = []
const forbiddenHits: string[] = []

const listen = (server: http.Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)))
const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

let sitePort = 0
let forbiddenPort = 0

beforeAll(async () => {
  forbidden = http.createServer((req, res) => {
    forbiddenHits.push(`${req.method} ${req.url}`)
    res.end('internal secret')
  })
  forbiddenPort = await listen(forbidden, '127.0.0.2')
  dns = await startDnsServer({ 'internal.acme.example': ['127.0.0.2'] })
  site = http.createServer((req, res) => {
    siteHits.push(`${req.method} ${req.url}`)
    if (req.url === '/address') return res.writeHead(302, { Location: `http://127.0.0.2:${forbiddenPort}/secret` }).end()
    if (req.url === '/name') return res.writeHead(302, { Location: `http://internal.acme.example:${forbiddenPort}/secret` }).end()
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><a href="/">home</a></body></html>')
  })
  sitePort = await listen(site, '127.0.0.1')
})

afterAll(async () => {
  await Promise.all([close(site), close(forbidden), dns.close()])
})

describe('the egress proxy under a real wapiti run', () => {
  it('lets wapiti scan the site in scope and refuses the redirects to an address the scope does not name', async () => {
    const scope: JobSpec['scope'] = [
      { kind: 'ip', value: '127.0.0.1' },
      { kind: 'domain', value: 'acme.example' },
    ]
    const job: JobSpec = {
      id: 'job-egress',
      profile: 'web-dast',
      targets: [`http://127.0.0.1:${sitePort}/address`, `http://127.0.0.1:${sitePort}/name`],
      scope,
      maxRunMs: 120_000,
      maxOutputBytes: 5_000_000,
      leaseExpiresAt: 0,
    }
    const guard = new TargetGuard(scope, { loopbackOnly: true, resolve: dnsResolver([dns.address]) })
    const log: string[] = []
    const outputs = await runJob(
      job,
      guard,
      new AbortController().signal,
      () => {},
      (line) => log.push(line),
    )

    expect(outputs).toHaveLength(2)
    for (const output of outputs) expect(JSON.parse(output)).toHaveProperty('vulnerabilities')
    // wapiti reached the site through the proxy: both start pages were asked for.
    expect(siteHits).toEqual(expect.arrayContaining(['GET /address', 'GET /name']))
    // …and never the server behind the redirects.
    expect(forbiddenHits).toEqual([])
    expect(log).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^egress refused: http:\/\/127\.0\.0\.2:\d+\/secret is outside the job's scope/),
        expect.stringMatching(
          /^egress refused: internal\.acme\.example resolves to 127\.0\.0\.2, which is a loopback address .* does not list/,
        ),
      ]),
    )
  }, 300_000)
})
