import { Timestamp } from 'firebase-admin/firestore'
import { describe, expect, it } from 'vitest'
import { changesFiles } from './review-vault-files.ts'

const at = (ms: number) => Timestamp.fromMillis(ms)
const now = Date.UTC(2026, 11, 1, 12)
const open = { open: true, expiresAt: at(now + 3600_000), purgeAt: at(now + 31 * 86400_000) }

describe('changesFiles', () => {
  it('asks for a review when a gate is made, shuts or goes', () => {
    expect(changesFiles(undefined, open)).toBe(true)
    expect(changesFiles(open, { ...open, open: false, closed: 'revoked', closedAt: at(now) })).toBe(true)
    expect(changesFiles(open, { ...open, open: false, closed: 'answered', closedAt: at(now) })).toBe(true)
    expect(changesFiles({ ...open, open: false, closed: 'answered' }, { ...open, open: false, closed: 'withdrawn' })).toBe(true)
    expect(changesFiles(open, undefined)).toBe(true)
  })

  it('asks nothing when what the gate says of its files stays the same', () => {
    expect(changesFiles(open, { ...open, filesTokenHash: 'A'.repeat(43) })).toBe(false)
    // A request without files: its answer writes a gate that says nothing of any.
    expect(changesFiles(undefined, { open: false })).toBe(false)
  })
})
