// In the desktop app the emailed link arrives as a deep-link event (bulwark://auth/redirect?…, from
// the browser's sign-in page or the system) instead of a page load. It is turned into the same
// /auth/redirect address the web uses, so one page completes both; anything else is ignored.
import { isTauri } from '@tauri-apps/api/core'
import { getCurrent, onOpenUrl } from '@tauri-apps/plugin-deep-link'
import { signInPathFor } from './desktop-sign-in-link'

/**
 * Sends every sign-in link the desktop app receives (at launch or while running) to `open`.
 * Does nothing in a browser. Resolves to the function that stops listening.
 */
export async function listenForDesktopSignInLinks(open: (path: string) => void): Promise<() => void> {
  if (!isTauri()) return () => {}
  const deliver = (urls: string[] | null) => {
    for (const url of urls ?? []) {
      const path = signInPathFor(url)
      if (path) open(path)
    }
  }
  deliver(await getCurrent())
  return onOpenUrl(deliver)
}

export const isDesktopApp = () => isTauri()
