import { describe, expect, it } from 'vitest'
import { emailKeyMatches } from './email-keys.ts'

describe('emailKeyMatches', () => {
  it('is the address, then @ and its domain, lowercased', () => {
    expect(emailKeyMatches('New.Comer@Initech.example')).toEqual(['new.comer@initech.example', '@initech.example'])
  })
})
