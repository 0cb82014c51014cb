// The desktop app's native menu: its shortcut items replay the web app's own shortcuts (the
// window's accelerators take those keys before the page sees them), and Sign out signs out here.
import { detectPlatform, type Platform } from '~/ui/hotkeys'

/** The event the shell emits with the id of the chosen menu item. */
export const MENU_EVENT = 'bulwark://menu'

const shortcutKeys: Record<string, string> = { shortcuts: 'h', 'color-scheme': 'j', 'toggle-menu': 'm' }

/** The keydown that the page's shortcut listener reads for a menu item, or null for other items. */
export function shortcutEventFor(id: string, platform: Platform): KeyboardEventInit | null {
  const key = shortcutKeys[id]
  if (!key) return null
  const mac = platform === 'mac'
  return { key, code: `Key${key.toUpperCase()}`, ctrlKey: !mac, metaKey: mac, bubbles: true, cancelable: true }
}

/** Follows the menu until the returned function is called. Does nothing outside the desktop app. */
export async function listenToDesktopMenu(signOut: () => Promise<void>): Promise<() => void> {
  const { isDesktopApp } = await import('./desktop')
  if (!isDesktopApp()) return () => {}
  const { listen } = await import('@tauri-apps/api/event')
  return listen<string>(MENU_EVENT, ({ payload }) => {
    if (payload === 'sign-out') {
      void signOut()
      return
    }
    const init = shortcutEventFor(payload, detectPlatform())
    if (init) window.dispatchEvent(new KeyboardEvent('keydown', init))
  })
}
