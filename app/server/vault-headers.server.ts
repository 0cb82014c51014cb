// What the Worker adds to every /vault/… page: the key in the fragment can be read by any script
// on the page, so only our own scripts run (a fresh nonce for the inline ones, a hash for the
// colour-scheme script), nothing is fetched from third parties, the address never leaves in a
// Referer, and no cache or search engine keeps the page.
import type { PublicConfig } from '~/core/session'

export const isVaultPage = (pathname: string) => pathname === '/vault' || pathname.startsWith('/vault/')

/** A nonce of 128 random bits, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
}

/** The base64 SHA-256 of an inline script, as CSP names it. */
export async function scriptHash(source: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source)))
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`
}

/** Where the browser calls Firebase: the emulators locally, Google's endpoints for the project otherwise. */
export function firebaseOrigins(config: Pick<PublicConfig, 'projectId' | 'emulators'>): string[] {
  if (config.emulators) {
    const { auth, functions } = config.emulators
    return [`http://${auth}`, ...(functions ? [`http://${functions}`] : [])]
  }
  return [
    'https://identitytoolkit.googleapis.com',
    'https://securetoken.googleapis.com',
    `https://us-central1-${config.projectId}.cloudfunctions.net`,
  ]
}

export function vaultHeaders(nonce: string, hashes: readonly string[], connect: readonly string[]): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' ${hashes.join(' ')}`.trim(),
    // styled-components writes its rules into style elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${connect.join(' ')}`.trim(),
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
  return {
    'Content-Security-Policy': csp,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Content-Type-Options': 'nosniff',
  }
}
