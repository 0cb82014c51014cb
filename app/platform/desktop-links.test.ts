import { emit } from '@tauri-apps/api/event'
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listenForDesktopSignInLinks } from './desktop-links'

const link = 'bulwark://auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en'

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

    await emit('deep-link://new-url', ['bulwark://auth/redirect?mode=signIn&oobCode=second'])
    await emit('deep-link://new-url', ['bulwark://something-else', 'http://tauri.localhost/auth/redirect?mode=signIn&oobCode=third'])
    expect(opened).toEqual(['/auth/redirect?mode=signIn&oobCode=abc123&apiKey=key&lang=en', '/auth/redirect?mode=signIn&oobCode=second'])
    stop()
  })
})
