import { describe, expect, it } from 'vitest'
import { isAppOrigin, isAppRequest } from './origin-guard.server'

describe('origin guard', () => {
  it('answers only the configured origins of a deployment', () => {
    const config = { appOrigins: ['https://app.bulwark.example'] }
    expect(isAppOrigin('https://app.bulwark.example', config)).toBe(true)
    expect(isAppOrigin('https://evil.example', config)).toBe(false)
    expect(isAppOrigin('http://app.bulwark.example', config)).toBe(false)
    expect(isAppRequest(new Request('https://app.bulwark.example/reports/'), config)).toBe(true)
    expect(isAppRequest(new Request('https://rebound.evil.example/reports/'), config)).toBe(false)
  })

  it('answers loopback addresses only for a local demo project, whatever the port', () => {
    const config = { appOrigins: null }
    expect(isAppOrigin('http://127.0.0.1:3000', config)).toBe(true)
    expect(isAppOrigin('http://localhost:4123', config)).toBe(true)
    expect(isAppOrigin('http://[::1]:3000', config)).toBe(true)
    expect(isAppOrigin('http://rebind.evil.example:3000', config)).toBe(false)
    expect(isAppOrigin('http://127.0.0.1.evil.example:3000', config)).toBe(false)
    expect(isAppOrigin('null', config)).toBe(false)
  })
})
