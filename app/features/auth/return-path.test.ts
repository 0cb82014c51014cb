import { describe, expect, it } from 'vitest'
import { safeReturnPath } from './return-path'

describe('safeReturnPath', () => {
  it('keeps paths of this site with their query and fragment', () => {
    expect(safeReturnPath('/reports/dast')).toBe('/reports/dast')
    expect(safeReturnPath('/reports/dast?severity=high&severity=low#f1')).toBe('/reports/dast?severity=high&severity=low#f1')
  })

  it('refuses anything that leaves the site', () => {
    for (const value of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      'reports',
    ]) {
      expect(safeReturnPath(value), value).toBeNull()
    }
  })

  it('refuses home, sign-in itself and what is not a string', () => {
    expect(safeReturnPath('/')).toBeNull()
    expect(safeReturnPath('/auth/redirect?apiKey=x')).toBeNull()
    expect(safeReturnPath(undefined)).toBeNull()
    expect(safeReturnPath(['/reports'])).toBeNull()
    expect(safeReturnPath('')).toBeNull()
  })
})
