import { describe, expect, it } from 'vitest'
import { decodeFields, decodeValue } from './firestore-rest'

describe('decoding Firestore REST values', () => {
  it('decodes every scalar type', () => {
    expect(decodeValue({ nullValue: null })).toBeNull()
    expect(decodeValue({ booleanValue: true })).toBe(true)
    expect(decodeValue({ integerValue: '9007199254740991' })).toBe(9007199254740991)
    expect(decodeValue({ integerValue: '7' })).toBe(7)
    expect(decodeValue({ doubleValue: 1.5 })).toBe(1.5)
    expect(decodeValue({ timestampValue: '2026-11-21T20:00:00.123Z' })).toBe(Date.parse('2026-11-21T20:00:00.123Z'))
    expect(decodeValue({ stringValue: 'acme' })).toBe('acme')
    expect(decodeValue({ referenceValue: 'projects/p/databases/(default)/documents/companies/acme' })).toContain('companies/acme')
    expect(decodeValue({ geoPointValue: { latitude: 1, longitude: 2 } })).toEqual({ latitude: 1, longitude: 2 })
  })

  it('decodes nested maps and arrays, including empty ones', () => {
    expect(
      decodeFields({
        claims: { mapValue: { fields: { accessLevel: { integerValue: '5' }, userType: { stringValue: 'analyst' } } } },
        companies: { arrayValue: { values: [{ stringValue: 'acme' }, { stringValue: 'globex' }] } },
        servicesEnabled: { arrayValue: {} },
        summary: { mapValue: {} },
      }),
    ).toEqual({ claims: { accessLevel: 5, userType: 'analyst' }, companies: ['acme', 'globex'], servicesEnabled: [], summary: {} })
    expect(decodeFields(undefined)).toEqual({})
  })

  it('refuses a value of an unknown kind rather than guessing', () => {
    expect(() => decodeValue({ vectorValue: {} } as never)).toThrow(/Unknown Firestore value/)
  })
})
