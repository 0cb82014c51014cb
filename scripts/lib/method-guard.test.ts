import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refuseOtherMethods } from './method-guard.ts'

let server: Server
let port: number

beforeAll(async () => {
  server = createServer((req, res) => refuseOtherMethods(req, res, () => res.end('app')))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const send = (method: string) =>
  new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: '/' }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body }))
    })
    req.on('error', reject)
    req.end()
  })

describe('refuseOtherMethods', () => {
  it('answers TRACE and made-up methods with a plain 405 naming the allowed ones', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      const answer = await send(method)
      expect(answer, method).toMatchObject({
        status: 405,
        allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
        body: 'Method Not Allowed\n',
      })
    }
  })

  it('lets the methods the product uses through', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) expect((await send(method)).body, method).toBe('app')
  })
})
