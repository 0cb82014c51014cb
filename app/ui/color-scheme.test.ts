import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  COLOR_SCHEME_KEY,
  nextToggle,
  parsePreference,
  preferenceCookie,
  preferenceFromCookies,
  readPreference,
  resolvedScheme,
  schemeAttribute,
  setPreference,
} from './color-scheme'
import { colorSchemeScript } from './color-scheme-script'

describe('the preference', () => {
  it('is auto unless it says light or dark', () => {
    expect(parsePreference('light')).toBe('light')
    expect(parsePreference('dark')).toBe('dark')
    expect(parsePreference('auto')).toBe('auto')
    expect(parsePreference('purple')).toBe('auto')
    expect(parsePreference(null)).toBe('auto')
  })

  it('resolves auto by the system and keeps an explicit choice', () => {
    expect(resolvedScheme('auto', true)).toBe('dark')
    expect(resolvedScheme('auto', false)).toBe('light')
    expect(resolvedScheme('light', true)).toBe('light')
    expect(resolvedScheme('dark', false)).toBe('dark')
  })

  it('toggles away from what is on screen', () => {
    expect(nextToggle('auto', true)).toBe('light')
    expect(nextToggle('auto', false)).toBe('dark')
    expect(nextToggle('light', true)).toBe('dark')
    expect(nextToggle('dark', false)).toBe('light')
  })

  it('puts only an explicit choice on the document', () => {
    expect(schemeAttribute('dark')).toBe('dark')
    expect(schemeAttribute('light')).toBe('light')
    expect(schemeAttribute('auto')).toBeUndefined()
    expect(schemeAttribute(null)).toBeUndefined()
  })
})

describe('the cookie', () => {
  it('is found among others and absent when not set', () => {
    expect(preferenceFromCookies(`a=1; ${COLOR_SCHEME_KEY}=dark; b=2`)).toBe('dark')
    expect(preferenceFromCookies(`${COLOR_SCHEME_KEY}=nonsense`)).toBe('auto')
    expect(preferenceFromCookies('a=1')).toBeNull()
    expect(preferenceFromCookies(undefined)).toBeNull()
  })

  it('lasts a year on every path and is not httpOnly', () => {
    const cookie = preferenceCookie('light')
    expect(cookie).toBe(`${COLOR_SCHEME_KEY}=light; Path=/; Max-Age=31536000; SameSite=Lax`)
    expect(cookie).not.toMatch(/httponly/i)
  })
})

function fakeBrowser(stored: Record<string, string> = {}, cookie = '') {
  const storage = new Map(Object.entries(stored))
  const written: string[] = []
  const attributes = new Map<string, string>()
  const dataset: Record<string, string> = {}
  const documentElement = {
    dataset,
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    removeAttribute: (name: string) => attributes.delete(name),
  }
  const document = {
    documentElement,
    get cookie() {
      return cookie
    },
    set cookie(value: string) {
      written.push(value)
    },
  }
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
  }
  return { document, localStorage, storage, written, attributes, dataset }
}

describe('readPreference and setPreference', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('reads auto on the server', () => {
    expect(readPreference()).toBe('auto')
  })

  it('reads what the document shows, not storage or the cookie', () => {
    const browser = fakeBrowser({ [COLOR_SCHEME_KEY]: 'light' }, `${COLOR_SCHEME_KEY}=light`)
    vi.stubGlobal('window', { localStorage: browser.localStorage })
    vi.stubGlobal('document', browser.document)
    expect(readPreference()).toBe('auto')
    browser.dataset.colorScheme = 'dark'
    expect(readPreference()).toBe('dark')
  })

  it('writes storage, cookie and the document attribute', () => {
    const browser = fakeBrowser()
    vi.stubGlobal('window', { localStorage: browser.localStorage })
    vi.stubGlobal('document', browser.document)
    setPreference('dark')
    expect(browser.storage.get(COLOR_SCHEME_KEY)).toBe('dark')
    expect(browser.written).toEqual([preferenceCookie('dark')])
    expect(browser.dataset.colorScheme).toBe('dark')
    setPreference('auto')
    expect(browser.storage.get(COLOR_SCHEME_KEY)).toBe('auto')
    expect(browser.written.at(-1)).toBe(preferenceCookie('auto'))
    expect('colorScheme' in browser.dataset).toBe(false)
  })
})

describe('the head script', () => {
  const run = (browser: ReturnType<typeof fakeBrowser>) =>
    new Function('localStorage', 'document', colorSchemeScript)(browser.localStorage, browser.document)

  it('applies the stored choice and restores a missing cookie', () => {
    const browser = fakeBrowser({ [COLOR_SCHEME_KEY]: 'dark' }, 'other=1')
    run(browser)
    expect(browser.attributes.get('data-color-scheme')).toBe('dark')
    expect(browser.written).toEqual([preferenceCookie('dark')])
  })

  it('leaves a cookie that already agrees', () => {
    const browser = fakeBrowser({ [COLOR_SCHEME_KEY]: 'light' }, `a=1; ${COLOR_SCHEME_KEY}=light`)
    run(browser)
    expect(browser.attributes.get('data-color-scheme')).toBe('light')
    expect(browser.written).toEqual([])
  })

  it('removes the attribute for auto and does nothing without a stored choice', () => {
    const auto = fakeBrowser({ [COLOR_SCHEME_KEY]: 'auto' }, `${COLOR_SCHEME_KEY}=dark`)
    auto.attributes.set('data-color-scheme', 'dark')
    run(auto)
    expect(auto.attributes.has('data-color-scheme')).toBe(false)
    expect(auto.written).toEqual([preferenceCookie('auto')])

    const nothing = fakeBrowser({}, `${COLOR_SCHEME_KEY}=dark`)
    nothing.attributes.set('data-color-scheme', 'dark')
    run(nothing)
    expect(nothing.attributes.get('data-color-scheme')).toBe('dark')
    expect(nothing.written).toEqual([])
  })
})
