// The read counter against a stand-in for the Firestore emulator that answers as it does: the
// Listen channel's handshake and backchannel in WebChannel frames, and the REST reads the edge makes.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectionOf, startReadCounter, type ReadCounter } from './firestore-reads'

const DOCS = 'projects/demo-sectest/databases/(default)/documents'
const frame = (messages: unknown[][]) => {
  const json = JSON.stringify(messages)
  return `${json.length}\n${json}`
}
const doc = (path: string) => ({ name: `${DOCS}/${path}`, fields: { title: { stringValue: 'Ünïcode – title' } } })

let upstream: http.Server
let counter: ReadCounter

beforeEach(async () => {
  upstream = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      if (url.pathname.endsWith('/Listen/channel') && request.method === 'POST' && !url.searchParams.get('SID')) {
        response.end(frame([[0, ['c', 'session-1', '', 8, 12, 30000]]]))
      } else if (url.pathname.endsWith('/Listen/channel') && request.method === 'POST') {
        response.end(frame([[1, 1]]))
      } else if (url.pathname.endsWith('/Listen/channel')) {
        // The backchannel: documents for target 2 (a query), target 4 current without any (a missing document), split mid-frame.
        const text =
          frame([[1, [{ targetChange: { targetChangeType: 'ADD', targetIds: [2, 4] } }]]]) +
          frame([
            [2, [{ documentChange: { document: doc('companies/acme/findings/a'), targetIds: [2] } }]],
            [3, [{ documentChange: { document: doc('companies/acme/findings/b'), targetIds: [2] } }]],
            [4, [{ documentChange: { document: doc('companies/acme/findings/c'), removedTargetIds: [2] } }]],
          ]) +
          frame([
            [5, [{ targetChange: { targetChangeType: 'CURRENT', targetIds: [2, 4] } }]],
            [6, ['noop']],
          ])
        const bytes = Buffer.from(text, 'utf8')
        response.write(bytes.subarray(0, 37))
        setTimeout(() => response.end(bytes.subarray(37)), 20)
      } else if (url.pathname.endsWith(':batchGet')) {
        response.end(JSON.stringify([{ found: doc('companies/acme') }, { missing: `${DOCS}/companies/acme/service_stats/dast` }]))
      } else if (url.pathname.endsWith(':runQuery')) {
        response.end(JSON.stringify([{ readTime: 'now' }]))
      } else if (url.pathname.endsWith(':runAggregationQuery')) {
        response.end(JSON.stringify([{ result: { aggregateFields: { count: { integerValue: '2500' } } } }]))
      } else if (url.pathname.endsWith('/users_access/u1')) {
        response.statusCode = 404
        response.end('{}')
      } else if (url.pathname.endsWith('/companies/acme/activity')) {
        response.end(JSON.stringify({ documents: [doc('companies/acme/activity/1'), doc('companies/acme/activity/2')] }))
      } else response.end('{}')
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  counter = await startReadCounter(`127.0.0.1:${(upstream.address() as AddressInfo).port}`)
})

afterEach(async () => {
  await counter.close()
  await new Promise((resolve) => upstream.close(resolve))
})

const base = () => `http://${counter.host}`
const channel = '/google.firestore.v1.Firestore/Listen/channel?database=x&VER=8'
const addTarget = (targetId: number, target: object) =>
  `req0___data__=${encodeURIComponent(JSON.stringify({ addTarget: { targetId, ...target } }))}`

describe('startReadCounter', () => {
  it('passes answers through unchanged and counts documents as Firestore bills them', async () => {
    const handshake = await fetch(`${base()}${channel}&RID=1`, {
      method: 'POST',
      headers: { Origin: 'http://127.0.0.1:3100', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `count=1&ofs=0&${addTarget(2, { query: { parent: `${DOCS}/companies/acme`, structuredQuery: { from: [{ collectionId: 'findings' }] } } })}`,
    })
    expect(await handshake.text()).toBe(frame([[0, ['c', 'session-1', '', 8, 12, 30000]]]))
    await fetch(`${base()}${channel}&SID=session-1&RID=2`, {
      method: 'POST',
      headers: { Origin: 'http://127.0.0.1:3100' },
      body: `count=1&ofs=1&${addTarget(4, { documents: { documents: [`${DOCS}/users_access/u9`] } })}`,
    })
    const back = await (await fetch(`${base()}${channel}&SID=session-1&RID=rpc&TYPE=xmlhttp`)).text()
    expect(back).toContain('Ünïcode')

    await fetch(`${base()}/v1/${DOCS}:batchGet`, { method: 'POST', body: '{}' })
    await fetch(`${base()}/v1/${DOCS}/companies/acme:runQuery`, { method: 'POST', body: '{}' })
    await fetch(`${base()}/v1/${DOCS}:runAggregationQuery`, { method: 'POST', body: '{}', headers: { Origin: 'http://127.0.0.1:3100' } })
    expect((await fetch(`${base()}/v1/${DOCS}/users_access/u1`)).status).toBe(404)
    await fetch(`${base()}/v1/${DOCS}/companies/acme/activity?pageSize=300`)

    const counts = counter.counts()
    expect(Object.fromEntries(counts.byCollection)).toEqual({
      'companies/*/findings': 2,
      users_access: 2,
      companies: 1,
      'companies/*/service_stats': 1,
      '(empty query)': 1,
      '(aggregation)': 3,
      'companies/*/activity': 2,
    })
    expect(counts.total).toBe(12)
    expect(counts.bySource).toEqual({ browser: 6, edge: 6 })
    counter.reset()
    expect(counter.counts().total).toBe(0)
  })

  it('names the collection of a document or query with its ids left out', () => {
    expect(collectionOf(`${DOCS}/companies/acme/findings/f1`)).toBe('companies/*/findings')
    expect(collectionOf('companies/acme/service_stats/dast/months/2026-01')).toBe('companies/*/service_stats/*/months')
    expect(collectionOf('/companies/acme')).toBe('companies')
  })
})
