import { describe, expect, it } from 'vitest'
import { auditChanges } from './audit-changes'

describe('auditChanges', () => {
  it('reads a creation as the values made', () => {
    expect(auditChanges({ before: null, after: { name: 'Local', egressIps: [] } })).toEqual(['name: "Local"', 'egressIps: []'])
  })

  it('reads a key present on one side only as a dash on the other', () => {
    expect(auditChanges({ before: { state: 'active' }, after: { state: 'active', credentials: 'rotated' } })).toEqual([
      'state: "active" → "active"',
      'credentials: — → "rotated"',
    ])
    expect(auditChanges({ before: { revokedAt: null, name: 'CI' }, after: null })).toEqual(['revokedAt: null → —', 'name: "CI" → —'])
  })

  it('cuts a long value to one line', () => {
    const [line] = auditChanges({ before: null, after: { note: 'x'.repeat(500) } })
    expect(line!.length).toBeLessThan(140)
    expect(line!.endsWith('…')).toBe(true)
  })
})
