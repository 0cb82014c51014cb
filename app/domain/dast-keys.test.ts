import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  crc32,
  CreateDastKeyRequestSchema,
  DAST_KEY_PREFIX,
  dastKeyFromDocument,
  dastKeyStatus,
  newDastKeyToken,
  parseDastKeyToken,
  randomBase62,
  targetAsScopeEntry,
} from './dast-keys.ts'

describe('DAST key format', () => {
  it('computes the IEEE CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926)
    expect(crc32('')).toBe(0)
  })

  it('makes keys that parse back to their id, each different', () => {
    const { id, token } = newDastKeyToken()
    expect(token.startsWith(DAST_KEY_PREFIX)).toBe(true)
    expect(token).toHaveLength(DAST_KEY_PREFIX.length + 16 + 40 + 6)
    expect(parseDastKeyToken(token)).toEqual({ id })
    expect(newDastKeyToken().token).not.toBe(token)
  })

  it('refuses a key with one character changed, cut short, lengthened or under another prefix', () => {
    const { token } = newDastKeyToken()
    const at = DAST_KEY_PREFIX.length + 20
    const swapped = token.slice(0, at) + (token[at] === 'a' ? 'b' : 'a') + token.slice(at + 1)
    expect(parseDastKeyToken(swapped)).toBeNull()
    expect(parseDastKeyToken(token.slice(0, -1))).toBeNull()
    expect(parseDastKeyToken(`${token}0`)).toBeNull()
    expect(parseDastKeyToken(token.replace('bwk_dast_', 'bwk_test_'))).toBeNull()
    expect(parseDastKeyToken(` ${token}`)).toBeNull()
  })

  it('draws random characters from the whole base62 alphabet', () => {
    const seen = new Set(randomBase62(4000))
    expect(seen.size).toBe(62)
  })
})

describe('creating a key', () => {
  const request = { company: 'acme', name: ' Nightly ', expiresInDays: 90, allowedTargets: ['https://App.acme.example/', '192.0.2.0/24'] }

  it('takes a name, an expiry of 1 to 365 days and concrete targets in canonical form', () => {
    const parsed = v.parse(CreateDastKeyRequestSchema, request)
    // Scans wait for an analyst's review unless the company chose otherwise for the key.
    expect(parsed).toEqual({
      ...request,
      name: 'Nightly',
      allowedTargets: ['https://app.acme.example/', '192.0.2.0/24'],
      publishAtOnce: false,
    })
    expect(v.parse(CreateDastKeyRequestSchema, { ...request, publishAtOnce: true }).publishAtOnce).toBe(true)
    expect(v.safeParse(CreateDastKeyRequestSchema, { ...request, publishAtOnce: 'yes' }).success).toBe(false)
  })

  it('refuses what is not a key request, with the messages the form shows', () => {
    const message = (patch: Record<string, unknown>) =>
      v.safeParse(CreateDastKeyRequestSchema, { ...request, ...patch }).issues?.[0].message
    expect(message({ expiresInDays: 366 })).toBe('A key expires after 1 to 365 days.')
    expect(message({ expiresInDays: 0 })).toBe('A key expires after 1 to 365 days.')
    expect(message({ expiresInDays: undefined })).toBe('A key expires after 1 to 365 days.')
    expect(message({ name: '  ' })).toBe('Name the key after the pipeline that uses it.')
    expect(message({ allowedTargets: [] })).toBe('Name at least one target the key may scan.')
    expect(message({ allowedTargets: ['*.acme.example'] })).toBe(
      '*.acme.example is not a target: enter a host name, an IP address or range, or an http(s) URL.',
    )
    expect(message({ allowedTargets: ['acme.example', 'ACME.example'] })).toBe('Each target appears only once.')
  })

  it('turns each target into the scope entry that covers it', () => {
    expect(targetAsScopeEntry('app.acme.example')).toEqual({ kind: 'host', value: 'app.acme.example' })
    expect(targetAsScopeEntry('2001:db8::/48')).toEqual({ kind: 'cidr', value: '2001:db8::/48' })
    expect(targetAsScopeEntry('https://acme.example/a?b')).toBeNull()
  })
})

describe('stored keys', () => {
  it('reads a key and its state', () => {
    const key = dastKeyFromDocument('A'.repeat(16), { company: 'acme', name: 'CI', last4: 'wxyz', expiresAt: 2000, revokedAt: null })
    expect(key?.hint).toBe(`bwk_dast_${'A'.repeat(16)}…wxyz`)
    expect(dastKeyStatus(key!, 1000)).toBe('active')
    expect(dastKeyStatus(key!, 2000)).toBe('expired')
    expect(dastKeyStatus({ ...key!, revokedAt: 1500 }, 1000)).toBe('revoked')
    expect(dastKeyStatus({ ...key!, expiresAt: null }, 0)).toBe('expired')
  })
})
