// Addresses outside the product open in the person's browser (or mail client), never inside the
// desktop app's window. In a browser: a new tab that cannot reach back to this page.
import { invokeDesktop, isDesktopApp } from './desktop'

const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:'])

export async function openExternal(href: string): Promise<void> {
  const url = new URL(href, globalThis.location?.href)
  if (!EXTERNAL_SCHEMES.has(url.protocol)) throw new Error(`Cannot open ${url.protocol} addresses`)
  if (isDesktopApp()) {
    await invokeDesktop('open_external', { url: url.href })
    return
  }
  window.open(url.href, '_blank', 'noopener,noreferrer')
}
