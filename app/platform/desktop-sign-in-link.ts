// The emailed sign-in link as it crosses between the browser and the desktop app, in the only shapes
// the product makes: the page it lands on in a browser (`<origin>/auth/redirect?via=desktop&mode=signIn&oobCode=…`),
// the app's own address for it (`bulwark://auth/redirect?mode=signIn&oobCode=…`), given to the app by
// the system, and the app's page that completes it (`/auth/redirect?mode=signIn&oobCode=…`). Only
// the link's own parameters cross, each checked; anything else is refused. No Tauri code here: the
// browser's sign-in page uses it too.
import * as v from 'valibot'
import { DESKTOP_SCHEME, RETURN_PARAM, returnPathOfLink, SIGN_IN_PATH, VIA_DESKTOP, VIA_PARAM } from '#domain/sign-in.ts'

/** `bulwark://auth/redirect`: the sign-in path with its first segment as the host. */
export const DESKTOP_SIGN_IN_URL = `${DESKTOP_SCHEME}:/${SIGN_IN_PATH}`

const token = (max: number) => v.pipe(v.string(), v.regex(/^[\w-]+$/), v.maxLength(max))

const LinkParamsSchema = v.object({
  mode: v.literal('signIn'),
  oobCode: token(1024),
  apiKey: v.optional(token(256)),
  lang: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/))),
})

function parse(url: string): URL | null {
  if (url.length > 4096) return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** The sign-in parameters of `url`, checked, in a fixed order; null when it is not a sign-in link. */
function linkParams(url: URL): URLSearchParams | null {
  const query = url.searchParams
  // A parameter given twice is refused: which one counts would be up to each reader.
  if (['mode', 'oobCode', 'apiKey', 'lang', RETURN_PARAM].some((name) => query.getAll(name).length > 1)) return null
  const fields = Object.fromEntries(
    ['mode', 'oobCode', 'apiKey', 'lang'].flatMap((name) => (query.has(name) ? [[name, query.get(name)]] : [])),
  )
  const parsed = v.safeParse(LinkParamsSchema, fields)
  if (!parsed.success) return null
  const kept = new URLSearchParams()
  for (const [name, value] of Object.entries(parsed.output)) if (value !== undefined) kept.set(name, value)
  const back = returnPathOfLink(url.href)
  if (back) kept.set(RETURN_PARAM, back)
  return kept
}

/**
 * The app's address for the sign-in page a browser opened (`pageUrl`), when the link was asked for in
 * the desktop app (`via=desktop`) and is one of the product's; else null (the browser completes it).
 */
export function desktopLinkFor(pageUrl: string): string | null {
  const url = parse(pageUrl)
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== SIGN_IN_PATH) return null
  if (url.searchParams.get(VIA_PARAM) !== VIA_DESKTOP) return null
  const kept = linkParams(url)
  return kept ? `${DESKTOP_SIGN_IN_URL}?${kept}` : null
}

/** The app's page that completes a link given to the app (`bulwark://auth/redirect?…`), or null for anything else. */
export function signInPathFor(link: string): string | null {
  const url = parse(link)
  if (!url || url.protocol !== `${DESKTOP_SCHEME}:` || `${url.host}${url.pathname}` !== SIGN_IN_PATH.slice(1)) return null
  if (url.username || url.password || url.port || url.hash) return null
  const kept = linkParams(url)
  return kept ? `${SIGN_IN_PATH}?${kept}` : null
}
