import { describe, expect, it } from 'vitest'
import { emailKeyFromDocument, emailKeyMatches } from './email-keys.ts'

describe('emailKeyMatches', () => {
  it('is the address, then @ and its domain, lowercased', () => {
    expect(emailKeyMatches('New.Comer@Initech.example')).toEqual(['new.comer@initech.example', '@initech.example'])
  })
})

describe('emailKeyFromDocument', () => {
  const key = { match: '@initech.example', company: 'initech' }

  it('grants client levels to clients and analyst levels to analysts', () => {
    expect(emailKeyFromDocument({ ...key, accessLevel: 3, userType: 'client' })).toMatchObject({ accessLevel: 3, userType: 'client' })
    expect(emailKeyFromDocument({ ...key, accessLevel: 9, userType: 'analyst' })).toMatchObject({ accessLevel: 9, userType: 'analyst' })
  })

  it('refuses a key that would make a client an analyst-level user (5 and above)', () => {
    for (const accessLevel of [5, 7, 9]) expect(emailKeyFromDocument({ ...key, accessLevel, userType: 'client' })).toBeNull()
  })
})
