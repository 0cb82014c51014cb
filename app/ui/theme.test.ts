import { describe, expect, it } from 'vitest'
import { brandColorsCss } from './theme'

describe('brandColorsCss', () => {
  it('sets only the colours the deployment gives', () => {
    expect(brandColorsCss(undefined)).toBe('')
    expect(brandColorsCss({ light: null, dark: null })).toBe('')
    expect(brandColorsCss({ light: '#0b7a4b', dark: null })).toBe(':root{--brand-primary: #0b7a4b;}')
    expect(brandColorsCss({ light: '#0b7a4b', dark: '#5fd39a' })).toBe(':root{--brand-primary: #0b7a4b;--brand-primary-dark: #5fd39a;}')
  })
})
