// What the Worker adds to its answers (decision 0020). Every page runs only our own scripts (a
// fresh nonce for the inline ones, a hash for the colour-scheme script) and may not be framed.
// /vault/… pages are stricter still (decision 0018): the key in the fragment can be read by any
// script on the page, so nothing is fetched from third parties, the address never leaves in a
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

/** What the app's pages also reach: Firestore and the search service (Algolia's hosts when deployed). */
export function appConnectOrigins(config: Pick<PublicConfig, 'projectId' | 'emulators'>, searchHosts: readonly string[]): string[] {
  const firestore = config.emulators
    ? config.emulators.firestore
      ? [`http://${config.emulators.firestore}`]
      : []
    : ['https://firestore.googleapis.com']
  const search = searchHosts.length > 0 ? searchHosts : ['https://*.algolia.net', 'https://*.algolianet.com']
  return [...firebaseOrigins(config), ...firestore, ...search]
}

interface PolicySources {
  nonce: string
  hashes: readonly string[]
  connect: readonly string[]
  images?: readonly string[]
}

/** The image the Firestore SDK's WebChannel fetches to test the network after a failure. */
const FIRESTORE_NETWORK_PROBE = 'https://www.google.com/images/cleardot.gif'

function contentSecurityPolicy({ nonce, hashes, connect, images = [] }: PolicySources): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}' ${hashes.join(' ')}`.trim(),
    // styled-components writes its rules into style elements at run time.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: ${images.join(' ')}`.trim(),
    "font-src 'self'",
    `connect-src 'self' ${connect.join(' ')}`.trim(),
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ')
}

export function vaultHeaders(nonce: string, hashes: readonly string[], connect: readonly string[]): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy({ nonce, hashes, connect }),
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Content-Type-Options': 'nosniff',
  }
}

/**
 * Every other server-rendered page: the same script rules (a page holds the session and the
 * Firebase SDK's refresh token is in reach of any script), profile pictures from Google, and no
 * shared cache may keep HTML rendered for one person. The sign-in link's page sends no Referer.
 */
export function pageHeaders(
  pathname: string,
  nonce: string,
  hashes: readonly string[],
  connect: readonly string[],
): Record<string, string> {
  return {
    // People's photos come through the app's own origin (/api/photos); Markdown drops remote images itself.
    // The Firestore SDK's streaming channel loads Google's one-pixel image to test the network when
    // a connection fails: that one address only.
    'Content-Security-Policy': contentSecurityPolicy({ nonce, hashes, connect, images: ['blob:', FIRESTORE_NETWORK_PROBE] }),
    'Referrer-Policy': pathname === '/auth/redirect' ? 'no-referrer' : 'strict-origin-when-cross-origin',
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  }
}

/** On every answer of the Worker (pages, server functions, API routes, redirects), unless it set its own. */
export const WORKER_HEADERS: Readonly<Record<string, string>> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'private, no-store',
}

/** `response` with WORKER_HEADERS added where it has none of its own. */
export function withWorkerHeaders(response: Response): Response {
  const out = new Response(response.body, response)
  for (const [name, value] of Object.entries(WORKER_HEADERS)) if (!out.headers.has(name)) out.headers.set(name, value)
  return out
}
