import { describe, expect, it } from 'vitest'
import { clientIp, clientIpBehindWorker, trustedHops } from './client-ip.ts'

describe('clientIp', () => {
  it('takes the entry the trusted front end appended, not the one the client wrote first', () => {
    expect(clientIp('1.2.3.4, 203.0.113.7', '10.0.0.1')).toBe('203.0.113.7')
    expect(clientIp('1.2.3.4, 203.0.113.7, 198.51.100.1', undefined, 2)).toBe('203.0.113.7')
    expect(clientIp(['1.2.3.4', '203.0.113.7'], undefined)).toBe('203.0.113.7')
  })

  it('falls back to the peer when the header has fewer entries than trusted hops', () => {
    expect(clientIp(undefined, '10.0.0.1')).toBe('10.0.0.1')
    expect(clientIp('203.0.113.7', '10.0.0.1', 2)).toBe('10.0.0.1')
    expect(clientIp(' , ', undefined)).toBeUndefined()
  })

  it('reads the number of trusted hops from TRUSTED_PROXY_HOPS, within bounds', () => {
    expect(trustedHops({})).toBe(1)
    expect(trustedHops({ TRUSTED_PROXY_HOPS: '2' })).toBe(2)
    expect(trustedHops({ TRUSTED_PROXY_HOPS: '0' })).toBe(1)
    expect(trustedHops({ TRUSTED_PROXY_HOPS: 'many' })).toBe(1)
  })

  it('behind the Worker, takes the entry the Worker wrote, not one a client put before it', () => {
    // The Worker sends Cloudflare's connecting IP; the front end appends the Worker's own address.
    expect(clientIpBehindWorker('203.0.113.9, 104.16.0.1', '10.0.0.1')).toBe('203.0.113.9')
    expect(clientIpBehindWorker('6.6.6.6, 203.0.113.9, 104.16.0.1', '10.0.0.1')).toBe('203.0.113.9')
    expect(clientIpBehindWorker('198.51.100.4, 203.0.113.9, 104.16.0.1, 35.191.0.1', undefined, 2)).toBe('203.0.113.9')
  })
})
