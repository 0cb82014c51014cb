// Which pages a sign-in link may lead back to. Only the app's own origins are allowed, so the
// callable cannot be used to mail links into someone else's site.
import { RETURN_PARAM, safeReturnPath, SIGN_IN_PATH, VIA_DESKTOP, VIA_PARAM } from '#domain/sign-in.ts'

// scheme://host[:port], lowercased. The URL standard gives 'null' as the origin of schemes it
// does not know (tauri://), so the origin is rebuilt from its parts.
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`.toLowerCase()
}

// A comma-separated list of origins (APP_ORIGINS). Throws on an entry that is not a bare http(s)
// origin: a typo there must fail loudly, not silently refuse every sign-in. Firebase Auth only
// makes links that continue to http(s) pages, so tauri://localhost cannot be one (the desktop
// app on Windows is http://tauri.localhost; elsewhere it passes the web app's origin).
export function parseOrigins(list: string): string[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  if (entries.length === 0) throw new Error('APP_ORIGINS lists no origin')
  return entries.map((entry) => {
    let url: URL
    try {
      url = new URL(entry)
    } catch {
      throw new Error(`APP_ORIGINS: not a URL: ${entry}`)
    }
    const bare = url.host !== '' && (url.pathname === '' || url.pathname === '/') && !url.search && !url.hash
    if (!bare || url.username || url.password) throw new Error(`APP_ORIGINS: not an origin: ${entry}`)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`APP_ORIGINS: not http(s): ${entry}`)
    return originOf(url)
  })
}

// The continue URL of the emailed link for the request's `url`: an allowed origin alone (the web
// app) or an allowed origin plus SIGN_IN_PATH (the desktop app) both lead to SIGN_IN_PATH on
// that origin, carrying `next` (the page asked for) when it is a path of this site, and `via=desktop`
// when the desktop app asked. Null for anything else.
export function continueUrlFor(url: string, allowedOrigins: readonly string[], next?: string, via?: typeof VIA_DESKTOP): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) return null
  if (parsed.host === '' || !['', '/', SIGN_IN_PATH].includes(parsed.pathname)) return null
  const origin = originOf(parsed)
  if (!allowedOrigins.includes(origin)) return null
  const params = new URLSearchParams()
  if (via === VIA_DESKTOP) params.set(VIA_PARAM, VIA_DESKTOP)
  const back = safeReturnPath(next)
  if (back) params.set(RETURN_PARAM, back)
  return params.size > 0 ? `${origin}${SIGN_IN_PATH}?${params}` : `${origin}${SIGN_IN_PATH}`
}
