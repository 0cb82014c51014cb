import { describe, expect, it } from 'vitest'
import { returnPathOfLink, safeReturnPath } from './sign-in.ts'

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

  it('refuses paths that become another host once normalised or decoded', () => {
    for (const value of [
      '/..//evil.example',
      '/.//evil.example',
      '/%2e%2e//evil.example',
      '/%2E%2E//evil.example/login',
      '/a/../..//evil.example',
      '/%2f%2fevil.example',
      '/%2F/evil.example',
      '/%5c%5cevil.example',
      '/%5C/evil.example',
      '/reports%5c..%5c..%5cevil.example',
      '/\\evil.example',
      '/\tevil.example',
      '/\t//evil.example',
      '/\n/evil.example',
      '/\r\n//evil.example',
      '/%09/evil.example',
    ]) {
      expect(safeReturnPath(value), JSON.stringify(value)).toBeNull()
    }
  })

  it('refuses paths that leave the site once decoded and then normalised', () => {
    for (const value of [
      '/%2e%2e%2f%2e%2e%2f%2fevil.example',
      '/%2e%2e%2f%2fevil.example',
      '/x/..%2f%2fevil.example',
      '/a/%2E%2E%2F%2E%2E%2F%2Fevil',
    ]) {
      expect(safeReturnPath(value), value).toBeNull()
    }
  })

  it('keeps dot segments that stay on the site, normalised', () => {
    expect(safeReturnPath('/reports/../templates')).toBe('/templates')
    expect(safeReturnPath('/./reports/dast')).toBe('/reports/dast')
  })

  it('refuses home, sign-in itself and what is not a string', () => {
    expect(safeReturnPath('/')).toBeNull()
    expect(safeReturnPath('/auth/redirect?apiKey=x')).toBeNull()
    expect(safeReturnPath(undefined)).toBeNull()
    expect(safeReturnPath(['/reports'])).toBeNull()
    expect(safeReturnPath('')).toBeNull()
  })
})

describe('returnPathOfLink', () => {
  it('reads the page from the link as it lands, and from the continue URL it wraps', () => {
    expect(returnPathOfLink('http://127.0.0.1:3000/auth/redirect?next=%2Freports%2Fdast%3Fseverity%3Dhigh&mode=signIn&oobCode=x')).toBe(
      '/reports/dast?severity=high',
    )
    const wrapped = `https://p.firebaseapp.com/__/auth/action?mode=signIn&oobCode=x&continueUrl=${encodeURIComponent(
      'http://tauri.localhost/auth/redirect?next=%2Fadmin%2Fusers',
    )}`
    expect(returnPathOfLink(wrapped)).toBe('/admin/users')
  })

  it('gives nothing for a link without a page, or with one that leaves the site', () => {
    expect(returnPathOfLink('http://127.0.0.1:3000/auth/redirect?mode=signIn&oobCode=x')).toBeNull()
    expect(returnPathOfLink('http://127.0.0.1:3000/auth/redirect?next=%2F%2Fevil.example&mode=signIn')).toBeNull()
    expect(returnPathOfLink('http://127.0.0.1:3000/auth/redirect?next=https%3A%2F%2Fevil.example')).toBeNull()
    expect(returnPathOfLink(`https://x/?continueUrl=${encodeURIComponent('https://a/auth/redirect?next=%2F%5Cevil')}`)).toBeNull()
    expect(returnPathOfLink('not a link')).toBeNull()
  })
})
