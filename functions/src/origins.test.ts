import { describe, expect, it } from 'vitest'
import { continueUrlFor, parseOrigins } from './origins.ts'

const origins = parseOrigins('http://127.0.0.1:3000, http://localhost:3000,http://tauri.localhost,https://app.bulwark.example')

describe('parseOrigins', () => {
  it('reads a comma-separated list of origins, lowercased', () => {
    expect(origins).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://tauri.localhost', 'https://app.bulwark.example'])
    expect(parseOrigins('HTTPS://App.Example/')).toEqual(['https://app.example'])
  })

  it('refuses anything but bare http(s) origins, and an empty list', () => {
    for (const list of [
      '',
      ' , ',
      'not a url',
      'https://app.example/path',
      'https://app.example/?q',
      'https://u:p@app.example',
      'tauri://localhost',
    ]) {
      expect(() => parseOrigins(list)).toThrow()
    }
  })
})

describe('continueUrlFor', () => {
  it('sends an allowed origin to its /auth/redirect', () => {
    expect(continueUrlFor('http://127.0.0.1:3000', origins)).toBe('http://127.0.0.1:3000/auth/redirect')
    expect(continueUrlFor('http://127.0.0.1:3000/', origins)).toBe('http://127.0.0.1:3000/auth/redirect')
    expect(continueUrlFor('https://APP.bulwark.example', origins)).toBe('https://app.bulwark.example/auth/redirect')
  })

  it('keeps a URL that already is /auth/redirect on an allowed origin (the desktop app)', () => {
    expect(continueUrlFor('http://tauri.localhost/auth/redirect', origins)).toBe('http://tauri.localhost/auth/redirect')
    expect(continueUrlFor('https://app.bulwark.example/auth/redirect', origins)).toBe('https://app.bulwark.example/auth/redirect')
  })

  it('carries the page asked for as `next`, only a path of this site', () => {
    expect(continueUrlFor('http://127.0.0.1:3000', origins, '/reports/dast?severity=high&severity=low')).toBe(
      'http://127.0.0.1:3000/auth/redirect?next=%2Freports%2Fdast%3Fseverity%3Dhigh%26severity%3Dlow',
    )
    expect(continueUrlFor('http://tauri.localhost/auth/redirect', origins, '/admin')).toBe(
      'http://tauri.localhost/auth/redirect?next=%2Fadmin',
    )
    for (const next of ['//evil.example', 'https://evil.example/', '/\\evil.example', '/', '/auth/redirect?x=1', '']) {
      expect(continueUrlFor('http://127.0.0.1:3000', origins, next), next).toBe('http://127.0.0.1:3000/auth/redirect')
    }
  })

  it('marks a link asked for in the desktop app (via=desktop), before the page asked for', () => {
    expect(continueUrlFor('https://app.bulwark.example/auth/redirect', origins, undefined, 'desktop')).toBe(
      'https://app.bulwark.example/auth/redirect?via=desktop',
    )
    expect(continueUrlFor('https://app.bulwark.example/auth/redirect', origins, '/admin', 'desktop')).toBe(
      'https://app.bulwark.example/auth/redirect?via=desktop&next=%2Fadmin',
    )
    expect(continueUrlFor('https://app.bulwark.example/', origins, undefined, 'other' as 'desktop')).toBe(
      'https://app.bulwark.example/auth/redirect',
    )
  })

  it('refuses other origins, other paths, queries, fragments and credentials', () => {
    for (const url of [
      'https://evil.example',
      'http://127.0.0.1:3001',
      'https://127.0.0.1:3000',
      'http://127.0.0.1:3000/admin',
      'http://127.0.0.1:3000/auth/redirect/',
      'http://127.0.0.1:3000/?next=x',
      'http://127.0.0.1:3000/#x',
      'http://user@127.0.0.1:3000',
      'tauri://localhost/auth/redirect',
      'tauri://localhost',
      'javascript:alert(1)',
      'data:text/html,hi',
      'not a url',
    ]) {
      expect(continueUrlFor(url, origins), url).toBeNull()
    }
  })
})
