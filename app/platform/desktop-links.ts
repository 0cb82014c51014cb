// In the desktop app the emailed link arrives as a deep-link event instead of a page load. It is
// turned into the same /auth/redirect address the web uses, so one page completes both.
import { isTauri } from '@tauri-apps/api/core'
import { getCurrent, onOpenUrl } from '@tauri-apps/plugin-deep-link'
import { RETURN_PARAM, returnPathOfLink, SIGN_IN_PATH } from '#domain/sign-in.ts'

/** The in-app address that completes a sign-in link, or null when the URL is not one. */
export function signInPathFor(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  const params = parsed.searchParams
  if (params.get('mode') !== 'signIn' || !params.get('oobCode')) return null
  const kept = new URLSearchParams()
  for (const name of ['mode', 'oobCode', 'apiKey', 'lang']) {
    const value = params.get(name)
    if (value !== null) kept.set(name, value)
  }
  const back = returnPathOfLink(url)
  if (back) kept.set(RETURN_PARAM, back)
  return `${SIGN_IN_PATH}?${kept}`
}

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
