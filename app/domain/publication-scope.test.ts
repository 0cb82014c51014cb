import { describe, expect, it } from 'vitest'
import { publicationScope, targetsScopeKey, type ScopedScan } from './publication-scope.ts'
import { latestWholeServiceScan, scopeTargets } from './scans.ts'

const scan = (id: string, scopeKey: string, startedAt: number, side = false): ScopedScan => ({ id, scopeKey, startedAt, side })

describe('publicationScope', () => {
  const whole = [scan('jan', 'dast:shop', 1), scan('feb', 'dast:shop', 2)]

  it('makes the first scan of a service a whole-service scan with nothing to compare with', () => {
    expect(publicationScope(scan('x', 'dast:shop', 1), [])).toEqual({ previous: null, sameScope: [], side: false })
  })

  it('compares a scan of the same scope with the latest one started before it, never a side scan', () => {
    const result = publicationScope(scan('mar', 'dast:shop', 3), [...whole, scan('host', 'dast:one', 4, true)])
    expect(result.previous?.id).toBe('feb')
    expect(result.sameScope.map((s) => s.id)).toEqual(['feb', 'jan'])
    expect(result.side).toBe(false)
  })

  it('makes a scope no published scan has a side scan that compares with nothing and may close nothing', () => {
    expect(publicationScope(scan('host', 'dast:one', 3), whole)).toEqual({ previous: null, sameScope: [], side: true })
  })

  it('keeps a side scope side: its later scans are side scans comparing with its own', () => {
    const result = publicationScope(scan('host2', 'dast:one', 5), [...whole, scan('host', 'dast:one', 4, true)])
    expect(result).toMatchObject({ previous: { id: 'host' }, side: true })
  })

  it('leaves the scan itself out (a publication called again)', () => {
    expect(publicationScope(scan('jan', 'dast:shop', 1), [whole[0]!])).toEqual({ previous: null, sameScope: [], side: false })
  })
})

describe('the latest whole-service scan', () => {
  it('passes over side scans, and falls back to the newest when there is no other', () => {
    expect(latestWholeServiceScan([scan('host', 'a', 3, true), scan('feb', 'b', 2), scan('jan', 'b', 1)])?.id).toBe('feb')
    expect(latestWholeServiceScan([scan('host', 'a', 3, true)])?.id).toBe('host')
    expect(latestWholeServiceScan([])).toBeNull()
  })
})

describe('scope keys', () => {
  it('names a file of targets by its sorted, distinct targets, and shows them without the service', () => {
    expect(targetsScopeKey('network', ['10.0.0.6', '10.0.0.5', '10.0.0.5'])).toBe('network:10.0.0.5,10.0.0.6')
    expect(scopeTargets('dast:https://shop.example/a')).toBe('https://shop.example/a')
    expect(scopeTargets('https://shop.example')).toBe('https://shop.example')
  })
})
