// @vitest-environment happy-dom
// The shell module's two paths: the browser's (a download, the Notification API, a new tab) and the
// desktop app's (its commands, reached through Tauri's IPC, mocked here).
import { emit } from '@tauri-apps/api/event'
import { clearMocks, mockIPC } from '@tauri-apps/api/mocks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { listenToDesktopMenu, MENU_EVENT, shortcutEventFor } from './desktop-menu'
import { openExternal } from './external-link'
import { saveFile, saveThroughDialog } from './save-file'
import { showSystemNotification } from './system-notification'

const inDesktop = () => ((globalThis as { isTauri?: boolean }).isTauri = true)

afterEach(() => {
  clearMocks()
  delete (globalThis as { isTauri?: boolean }).isTauri
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('in a browser', () => {
  it('saves a file as a download named after it, and leaves no link behind', () => {
    const clicked: { download: string; href: string; attached: boolean }[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href, attached: this.isConnected })
    })
    saveFile('findings.csv', new Blob(['a,b'], { type: 'text/csv' }))
    expect(clicked).toHaveLength(1)
    expect(clicked[0]).toMatchObject({ download: 'findings.csv', attached: true })
    expect(clicked[0]!.href).toMatch(/^blob:/)
    expect(document.querySelectorAll('a[download]')).toHaveLength(0)
  })

  it('shows a notification only where the person allowed them', async () => {
    expect(await showSystemNotification({ title: 'Critical finding', body: 'SQL injection' })).toBe('not-allowed')
    const shown: unknown[] = []
    class Granted {
      static permission = 'granted'
      constructor(title: string, options: NotificationOptions) {
        shown.push({ title, body: options.body })
      }
    }
    vi.stubGlobal('Notification', Granted)
    expect(await showSystemNotification({ title: 'Critical finding', body: 'SQL injection' })).toBe('shown')
    expect(shown).toEqual([{ title: 'Critical finding', body: 'SQL injection' }])
    class Denied {
      static permission = 'denied'
    }
    vi.stubGlobal('Notification', Denied)
    expect(await showSystemNotification({ title: 'x', body: 'y' })).toBe('not-allowed')
  })

  it('opens external addresses in a new tab that cannot reach back, and refuses other schemes', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null)
    await openExternal('https://example.com/advisory')
    expect(open).toHaveBeenCalledWith('https://example.com/advisory', '_blank', 'noopener,noreferrer')
    await expect(openExternal('javascript:alert(1)')).rejects.toThrow('Cannot open javascript: addresses')
    await expect(openExternal('file:///etc/passwd')).rejects.toThrow()
    expect(open).toHaveBeenCalledTimes(1)
  })

  it('does not follow the native menu', async () => {
    const stop = await listenToDesktopMenu(async () => {})
    stop()
  })
})

describe('in the desktop app', () => {
  it('hands the file to the native save dialog as bytes', async () => {
    inDesktop()
    const calls: { cmd: string; payload: unknown }[] = []
    mockIPC((cmd, payload) => {
      calls.push({ cmd, payload })
      return true
    })
    expect(await saveThroughDialog('Acme findings.csv', new Blob(['a,b']))).toBe(true)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.cmd).toBe('save_file')
    expect(Array.from(calls[0]!.payload as Uint8Array)).toEqual([97, 44, 98])
  })

  it('routes notifications and external links to the shell', async () => {
    inDesktop()
    const calls: [string, unknown][] = []
    mockIPC((cmd, payload) => {
      calls.push([cmd, payload])
      return null
    })
    const open = vi.spyOn(window, 'open')
    await showSystemNotification({ title: 'Retest complete', body: 'Fixed' })
    await openExternal('https://example.com/')
    expect(calls).toEqual([
      ['notify', { title: 'Retest complete', body: 'Fixed' }],
      ['open_external', { url: 'https://example.com/' }],
    ])
    expect(open).not.toHaveBeenCalled()
  })

  it('replays the menu shortcuts as the page shortcuts and signs out from the menu', async () => {
    inDesktop()
    mockIPC(() => null, { shouldMockEvents: true })
    const keys: string[] = []
    const onKey = (event: KeyboardEvent) => keys.push(`${event.ctrlKey ? 'ctrl+' : ''}${event.metaKey ? 'meta+' : ''}${event.key}`)
    window.addEventListener('keydown', onKey)
    let signedOut = 0
    const stop = await listenToDesktopMenu(async () => {
      signedOut++
    })
    await emit(MENU_EVENT, 'color-scheme')
    await emit(MENU_EVENT, 'shortcuts')
    await emit(MENU_EVENT, 'sign-out')
    await emit(MENU_EVENT, 'unknown')
    stop()
    window.removeEventListener('keydown', onKey)
    expect(keys).toEqual(['ctrl+j', 'ctrl+h'])
    expect(signedOut).toBe(1)
  })

  it('uses Command for the shortcuts on macOS', () => {
    expect(shortcutEventFor('toggle-menu', 'mac')).toMatchObject({ key: 'm', code: 'KeyM', metaKey: true, ctrlKey: false })
    expect(shortcutEventFor('sign-out', 'other')).toBeNull()
  })
})
