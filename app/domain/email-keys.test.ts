import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  CreateEmailKeyRequestSchema,
  emailKeyFromDocument,
  emailKeyMatches,
  emailKeyMessages,
  emailKeyState,
  normaliseEmailKeyMatch,
  pickEmailKey,
  type EmailKey,
} from './email-keys.ts'

const DAY = 24 * 3600_000
const NOW = Date.UTC(2026, 10, 20)

const key = (match: string, more: Partial<EmailKey> = {}): { key: EmailKey } => ({
  key: { ...emailKeyFromDocument({ match, company: 'acme', accessLevel: 1, userType: 'client' })!, ...more },
})

describe('emailKeyMatches', () => {
  it('is the address, then @ and its domain, lowercased', () => {
    expect(emailKeyMatches('New.Comer@Initech.example')).toEqual(['new.comer@initech.example', '@initech.example'])
  })
})

describe('normaliseEmailKeyMatch', () => {
  it('keeps addresses and domains in one spelling, IDN as punycode', () => {
    expect(normaliseEmailKeyMatch(' Alice@Example.COM ')).toBe('alice@example.com')
    expect(normaliseEmailKeyMatch('example.com.')).toBe('@example.com')
    expect(normaliseEmailKeyMatch('@bücher.example')).toBe('@xn--bcher-kva.example')
  })

  it('refuses what is neither', () => {
    for (const input of ['', '@', 'localhost', 'a@b', 'a b@example.com', '@-bad-.example', '@1.2.3.4'])
      expect(normaliseEmailKeyMatch(input), input).toBeNull()
  })
})

describe('emailKeyState', () => {
  it('reads revoked, expired, expiring within 14 days, else active', () => {
    expect(emailKeyState({ revokedAt: NOW - DAY, expiresAt: NOW + 100 * DAY }, NOW)).toBe('revoked')
    expect(emailKeyState({ revokedAt: null, expiresAt: NOW - 1 }, NOW)).toBe('expired')
    expect(emailKeyState({ revokedAt: null, expiresAt: NOW + 13 * DAY }, NOW)).toBe('expiring')
    expect(emailKeyState({ revokedAt: null, expiresAt: NOW + 15 * DAY }, NOW)).toBe('active')
    expect(emailKeyState({ revokedAt: null, expiresAt: null }, NOW)).toBe('active')
  })
})

describe('pickEmailKey', () => {
  it('takes the exact address over its domain, and skips revoked, expired and consumer-domain keys', () => {
    const domain = key('@acme.example')
    const exact = key('boss@acme.example', { accessLevel: 3 })
    expect(pickEmailKey([domain, exact], 'Boss@acme.example', NOW)).toBe(exact)
    expect(pickEmailKey([domain, exact], 'other@acme.example', NOW)).toBe(domain)
    expect(pickEmailKey([key('@acme.example', { revokedAt: NOW - DAY })], 'a@acme.example', NOW)).toBeNull()
    expect(pickEmailKey([key('@acme.example', { expiresAt: NOW - DAY })], 'a@acme.example', NOW)).toBeNull()
    expect(pickEmailKey([key('@gmail.com')], 'a@gmail.com', NOW)).toBeNull()
  })
})

describe('CreateEmailKeyRequestSchema', () => {
  const request = { match: '@acme.example', company: 'acme', userType: 'client', accessLevel: 1, expiresAt: Date.now() + 30 * DAY }
  const message = (changes: object) => v.safeParse(CreateEmailKeyRequestSchema, { ...request, ...changes }).issues?.[0]?.message

  it('refuses consumer domains, a level that does not fit the type and an expiry past a year or gone', () => {
    expect(message({})).toBeUndefined()
    expect(message({ match: 'gmail.com' })).toBe(emailKeyMessages.consumer)
    expect(message({ match: 'someone@gmail.com' })).toBeUndefined()
    expect(message({ accessLevel: 5 })).toBe(emailKeyMessages.typeLevel)
    expect(message({ expiresAt: Date.now() + 400 * DAY })).toBe(emailKeyMessages.expiry)
    expect(message({ expiresAt: Date.now() - 1 })).toBe(emailKeyMessages.expiry)
  })
})
