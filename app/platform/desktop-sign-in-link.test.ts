import { describe, expect, it } from 'vitest'
import { desktopLinkFor, signInPathFor } from './desktop-sign-in-link'

// The page a browser lands on from the emailed link of a sign-in asked for in the app (the
// continue URL's `via` and `next`, then what Firebase adds).
const page =
  'https://app.bulwark.example/auth/redirect?via=desktop&next=%2Freports%2Fdast&mode=signIn&oobCode=abc-123_X&apiKey=AIza-key&lang=en'
const inApp = 'bulwark://auth/redirect?mode=signIn&oobCode=abc-123_X&apiKey=AIza-key&lang=en&next=%2Freports%2Fdast'

describe('desktopLinkFor (the browser hands the link to the app)', () => {
  it('carries the whole link to the app, only its sign-in parameters', () => {
    expect(desktopLinkFor(page)).toBe(inApp)
    expect(desktopLinkFor(`${page}&continueUrl=https%3A%2F%2Fapp.bulwark.example%2Fauth%2Fredirect&extra=1`)).toBe(inApp)
    expect(desktopLinkFor('http://127.0.0.1:3000/auth/redirect?via=desktop&mode=signIn&lang=en&oobCode=c0de&apiKey=fake-api-key')).toBe(
      'bulwark://auth/redirect?mode=signIn&oobCode=c0de&apiKey=fake-api-key&lang=en',
    )
  })

  it('leaves links asked for in a browser to the browser', () => {
    expect(desktopLinkFor(page.replace('via=desktop&', ''))).toBeNull()
    expect(desktopLinkFor(page.replace('via=desktop', 'via=other'))).toBeNull()
  })

  it('refuses what is not the product’s sign-in link', () => {
    for (const url of [
      page.replace('/auth/redirect', '/elsewhere'),
      page.replace('https:', 'file:'),
      page.replace('mode=signIn', 'mode=resetPassword'),
      page.replace('oobCode=abc-123_X', 'oobCode='),
      page.replace('oobCode=abc-123_X', 'oobCode=a%26next%3D%2F%2Fevil'),
      page.replace('apiKey=AIza-key', 'apiKey=a%20b'),
      page.replace('lang=en', 'lang=%22%3E'),
      // A parameter twice: which one the app would use is not certain.
      `${page}&oobCode=second`,
      'not a url',
    ]) {
      expect(desktopLinkFor(url), url).toBeNull()
    }
  })

  it('drops a page to return to that leaves the site', () => {
    expect(desktopLinkFor(page.replace('%2Freports%2Fdast', '%2F%2Fevil.example'))).toBe(
      'bulwark://auth/redirect?mode=signIn&oobCode=abc-123_X&apiKey=AIza-key&lang=en',
    )
  })
})

describe('signInPathFor (the app opens the link it is given)', () => {
  it('turns the app’s link into its sign-in page, keeping the page asked for', () => {
    expect(signInPathFor(inApp)).toBe('/auth/redirect?mode=signIn&oobCode=abc-123_X&apiKey=AIza-key&lang=en&next=%2Freports%2Fdast')
    expect(signInPathFor('bulwark://auth/redirect?mode=signIn&oobCode=abc')).toBe('/auth/redirect?mode=signIn&oobCode=abc')
  })

  it('is the way back of desktopLinkFor', () => {
    const back = new URL(signInPathFor(desktopLinkFor(page)!)!, 'https://app.bulwark.example')
    const landed = new URL(page)
    for (const name of ['mode', 'oobCode', 'apiKey', 'lang', 'next'])
      expect(back.searchParams.get(name)).toBe(landed.searchParams.get(name))
    expect(back.pathname).toBe('/auth/redirect')
  })

  it('accepts only the product’s own link shape', () => {
    for (const url of [
      'http://tauri.localhost/auth/redirect?mode=signIn&oobCode=abc',
      'https://app.bulwark.example/auth/redirect?mode=signIn&oobCode=abc',
      'other://auth/redirect?mode=signIn&oobCode=abc',
      'bulwark://open/reports',
      'bulwark://auth/elsewhere?mode=signIn&oobCode=abc',
      'bulwark://auth/redirect/more?mode=signIn&oobCode=abc',
      'bulwark://user@auth/redirect?mode=signIn&oobCode=abc',
      'bulwark://auth:1/redirect?mode=signIn&oobCode=abc',
      'bulwark://auth/redirect?mode=signIn&oobCode=abc#x',
      'bulwark://auth/redirect?mode=resetPassword&oobCode=abc',
      'bulwark://auth/redirect?mode=signIn&oobCode=%3Cscript%3E',
      'bulwark://auth/redirect?mode=signIn',
      `bulwark://auth/redirect?mode=signIn&oobCode=${'a'.repeat(5000)}`,
      'not a url',
    ]) {
      expect(signInPathFor(url), url).toBeNull()
    }
  })

  it('drops a page to return to that leaves the site', () => {
    expect(signInPathFor('bulwark://auth/redirect?mode=signIn&oobCode=abc&next=https%3A%2F%2Fevil.example')).toBe(
      '/auth/redirect?mode=signIn&oobCode=abc',
    )
  })
})
