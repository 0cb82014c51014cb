import { emit } from '@tauri-apps/api/event'
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listenForDesktopSignInLinks, signInPathFor } from './desktop-links'

const link = 'http://tauri.localhost/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en&continueUrl=x'

describe('signInPathFor', () => {
  it('keeps the sign-in parameters and drops the rest', () => {
    expect(signInPathFor(link)).toBe('/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en')
  })

  it('keeps the page asked for, only a path of this site', () => {
    expect(signInPathFor(`${link}&next=%2Freports%2Fdast`)).toBe(
      '/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en&next=%2Freports%2Fdast',
    )
    expect(signInPathFor(`${link}&next=%2F%2Fevil.example`)).toBe('/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en')
  })

  it('ignores URLs that are not sign-in links', () => {
    expect(signInPathFor('bulwark://open/reports')).toBeNull()
    expect(signInPathFor('http://tauri.localhost/auth/redirect?mode=resetPassword&oobCode=1')).toBeNull()
    expect(signInPathFor('not a url')).toBeNull()
  })
})

describe('listenForDesktopSignInLinks', () => {
  beforeEach(() => {
    // The Tauri mocks attach to `window`; these tests run without a DOM.
    ;(globalThis as { window?: unknown }).window = globalThis
  })
  afterEach(() => {
    clearMocks()
    delete (globalThis as { isTauri?: unknown }).isTauri
    delete (globalThis as { window?: unknown }).window
  })

  it('does nothing outside the desktop app', async () => {
    const opened: string[] = []
    const stop = await listenForDesktopSignInLinks((path) => opened.push(path))
    stop()
    expect(opened).toEqual([])
  })

  it('opens the link the app was launched with and each one that arrives later', async () => {
    ;(globalThis as { isTauri?: boolean }).isTauri = true
    mockIPC((cmd) => (cmd === 'plugin:deep-link|get_current' ? [link] : null), { shouldMockEvents: true })
    const opened: string[] = []
    const stop = await listenForDesktopSignInLinks((path) => opened.push(path))
    expect(opened).toEqual(['/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en'])

    await emit('deep-link://new-url', ['http://tauri.localhost/auth/redirect?mode=signIn&oobCode=second'])
    await emit('deep-link://new-url', ['bulwark://something-else'])
    expect(opened).toEqual(['/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en', '/auth/redirect?mode=signIn&oobCode=second'])
    stop()
  })
})
