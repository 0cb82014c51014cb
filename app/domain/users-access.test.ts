import { describe, expect, it } from 'vitest'
import { accessFromDocument, accessGrant, planClaims, readUserAccess } from './users-access.ts'

const doc = (accessLevel: number, userType: 'client' | 'analyst', extra: Record<string, unknown> = {}) => ({
  claims: { accessLevel, userType, ...extra },
  companies: ['acme'],
})

describe('planClaims: what syncUserClaims does for a write of users_access', () => {
  it('sets the first grant, keeping other claims, without revoking', () => {
    expect(planClaims({ revoked: 100, name: 'x' }, doc(2, 'client'))).toEqual({
      claims: { revoked: 100, name: 'x', accessLevel: 2, userType: 'client' },
      changed: true,
      revoke: false,
    })
  })

  it('does nothing when the claims already match: its own write ends the chain of triggers', () => {
    const first = planClaims({}, doc(7, 'analyst'))
    expect(planClaims(first.claims, doc(7, 'analyst', { synced: 1_750_000_000_000 }))).toEqual({
      claims: first.claims,
      changed: false,
      revoke: false,
    })
  })

  it('a promotion changes the claims without ending sign-ins', () => {
    expect(planClaims({ accessLevel: 5, userType: 'analyst' }, doc(7, 'analyst'))).toMatchObject({ changed: true, revoke: false })
  })

  it.each([
    ['a lower level', { accessLevel: 7, userType: 'analyst' }, doc(5, 'analyst')],
    ['another user type', { accessLevel: 3, userType: 'analyst' }, doc(3, 'client')],
    ['a level the type may not hold (client at 9)', { accessLevel: 9, userType: 'analyst' }, doc(9, 'client')],
    ['a document without claims', { accessLevel: 1, userType: 'client' }, { companies: ['acme'] }],
  ])('a demotion to %s changes the claims and revokes', (_label, current, document) => {
    expect(planClaims(current, document)).toMatchObject({ changed: true, revoke: true })
  })

  it('a removed document takes the access claims away and revokes; other claims stay', () => {
    expect(planClaims({ accessLevel: 7, userType: 'analyst', revoked: 5 }, null)).toEqual({
      claims: { revoked: 5 },
      changed: true,
      revoke: true,
    })
    // Nobody held access: nothing to take away.
    expect(planClaims({}, null)).toEqual({ claims: {}, changed: false, revoke: false })
  })

  it('a document whose claims.revoked is later than the revoked claim asks for a revocation, once', () => {
    const asked = doc(2, 'client', { revoked: 1_750_000_000_500 })
    expect(planClaims({ accessLevel: 2, userType: 'client' }, asked)).toMatchObject({ changed: false, revoke: true })
    expect(planClaims({ accessLevel: 2, userType: 'client', revoked: 1_749_999_999 }, asked).revoke).toBe(true)
    // The sync wrote Auth's revocation second into both.
    expect(planClaims({ accessLevel: 2, userType: 'client', revoked: 1_750_000_000 }, asked).revoke).toBe(false)
  })
})

describe('accessGrant', () => {
  it('refuses a client at an analyst level', () => {
    expect(accessGrant(doc(9, 'client'))).toBeNull()
    expect(accessGrant(doc(3, 'client'))).toEqual({ accessLevel: 3, userType: 'client' })
    expect(accessGrant(doc(5, 'analyst'))).toEqual({ accessLevel: 5, userType: 'analyst' })
  })
})

describe('accessFromDocument', () => {
  const token = { accessLevel: 9, userType: 'analyst' as const }

  it('a missing users_access is no access, whatever a token minted before its removal says', () => {
    expect(accessFromDocument(null, token)).toEqual({ accessLevel: null, userType: null, servicesEnabled: [], servicesManaged: [] })
  })

  it("the document's claims win over the token's", () => {
    expect(accessFromDocument(readUserAccess(doc(2, 'client')), token)).toMatchObject({ accessLevel: 2, userType: 'client' })
  })
})
