import { describe, expect, it } from 'vitest'
import { DisplayNameSchema, PhotoUrlSchema, problemWith } from './profile-fields'

describe('profile fields', () => {
  it('accepts display names up to 100 characters', () => {
    expect(problemWith(DisplayNameSchema, '')).toBeNull()
    expect(problemWith(DisplayNameSchema, 'x'.repeat(100))).toBeNull()
    expect(problemWith(DisplayNameSchema, 'x'.repeat(101))).toBe('At most 100 characters.')
  })

  it('accepts no photo or an https address', () => {
    expect(problemWith(PhotoUrlSchema, '')).toBeNull()
    expect(problemWith(PhotoUrlSchema, 'https://cdn.example/me.png')).toBeNull()
  })

  it('says what is wrong with other photo addresses', () => {
    expect(problemWith(PhotoUrlSchema, 'http://cdn.example/me.png')).toBe('The address must start with https://.')
    expect(problemWith(PhotoUrlSchema, 'me.png')).toBe('Enter a full address, like https://example.com/me.png.')
    expect(problemWith(PhotoUrlSchema, 'javascript:alert(1)')).toBe('The address must start with https://.')
    expect(problemWith(PhotoUrlSchema, `https://cdn.example/${'p'.repeat(2048)}`)).toBe('At most 2048 characters.')
  })
})
