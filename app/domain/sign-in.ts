// The sign-in contract shared by the browser and the functions: what the sign-in request carries,
// what the callables answer and the messages people see. Pure TypeScript and valibot only: Node
// runs it directly and the functions build compiles it into their package.
import * as v from 'valibot'

/** An address is "text@text": anything more precise would reject addresses people really use. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/
export const INVALID_EMAIL = 'Invalid email'

/** Where the emailed link lands, in the web app and in the desktop shell. */
export const SIGN_IN_PATH = '/auth/redirect'

// The page a person asked for before signing in, carried to the page that completes sign-in: in
// this browser's storage and in the emailed link itself (for a link opened in another browser).
// Only paths of this site pass, so neither can send anyone to another site.

/** The name of the emailed link's query parameter that carries the page. */
export const RETURN_PARAM = 'next'

/**
 * The continue URL's marker of a link asked for in the desktop app (`?via=desktop`): opened in a
 * browser, the sign-in page hands the link to the app instead of completing it there.
 */
export const VIA_PARAM = 'via'
export const VIA_DESKTOP = 'desktop'
/** The desktop app's URL scheme: `bulwark://auth/redirect?…` is the emailed link, for the app. */
export const DESKTOP_SCHEME = 'bulwark'

const BASE = 'https://same-site.invalid'

// What a browser can read as another host: two leading slashes, a backslash (read as a slash), a
// control character or space (dropped, so `/\t/host` is `//host`).
const leavesSite = (path: string) =>
  path.startsWith('//') || path.includes('\\') || [...path].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f)

function asSitePath(value: string): string | null {
  if (!value.startsWith('/') || leavesSite(value)) return null
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return null
  }
  if (url.origin !== BASE || url.pathname === SIGN_IN_PATH || url.pathname === '/') return null
  // The path is checked again as normalised (`/..//host` is `//host`) and as decoded once, in case a
  // router or proxy on the way decodes it (`/%5c%5chost`, `/%2f%2fhost`).
  let decoded: string
  try {
    decoded = decodeURIComponent(url.pathname)
  } catch {
    return null
  }
  if (leavesSite(url.pathname) || leavesSite(decoded)) return null
  // And as decoded, then normalised: `/%2e%2e%2f%2f` is `/..//` to one who decodes it, `//` after.
  let decodedUrl: URL
  try {
    decodedUrl = new URL(decoded, BASE)
  } catch {
    return null
  }
  if (decodedUrl.origin !== BASE || leavesSite(decodedUrl.pathname)) return null
  return `${url.pathname}${url.search}${url.hash}`
}

/**
 * A path of this site (path, query and fragment), normalised: anything that leaves the site
 * (`//host`, `/\host`, a scheme, or a path that becomes one of those once normalised or decoded),
 * home itself or sign-in is refused.
 */
export const ReturnPathSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(2048),
  v.check((value) => asSitePath(value) !== null),
  v.transform((value) => asSitePath(value)!),
)

/** `value` as a path of this site, or null. */
export function safeReturnPath(value: unknown): string | null {
  const parsed = v.safeParse(ReturnPathSchema, value)
  return parsed.success ? parsed.output : null
}

/**
 * The page an emailed sign-in link carries: its own `next`, or that of the continue URL it wraps
 * (Firebase's link before its redirect, as the desktop app receives it). Null when none, or not safe.
 */
export function returnPathOfLink(link: string): string | null {
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return null
  }
  const own = url.searchParams.get(RETURN_PARAM)
  if (own !== null) return safeReturnPath(own)
  const wrapped = url.searchParams.get('continueUrl')
  if (wrapped === null) return null
  try {
    return safeReturnPath(new URL(wrapped).searchParams.get(RETURN_PARAM))
  } catch {
    return null
  }
}

export const signInMessages = {
  sent: 'Check your inbox: we sent you a sign-in link.',
  notAuthorized: 'You are not currently authorized to create an account.',
  linkInvalid: 'This link was previously used or does not match the email you provided.',
  cannotSend: 'Cannot send sign-in link. Please contact support.',
  tooMany: 'Too many sign-in requests. Please wait a few minutes and try again.',
} as const

/** True for IANA zone names (and aliases) the runtime knows, e.g. 'Europe/Paris' or 'UTC'. */
export function isTimeZone(value: string): boolean {
  if (value.length === 0) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

// A missing address also reads "Invalid email" (it becomes '' and fails the pattern).
export const EmailSchema = v.pipe(
  v.optional(v.string(INVALID_EMAIL), ''),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, INVALID_EMAIL),
  v.regex(EMAIL_PATTERN, INVALID_EMAIL),
)

export const SignInRequestSchema = v.strictObject({
  email: EmailSchema,
  // The page's origin; in the desktop app, its origin plus SIGN_IN_PATH.
  url: v.pipe(v.string('Invalid url'), v.maxLength(2048, 'Invalid url'), v.url('Invalid url')),
  timeZone: v.pipe(v.string('Invalid time zone'), v.maxLength(64, 'Invalid time zone'), v.check(isTimeZone, 'Invalid time zone')),
  // The page asked for before signing in, carried in the link's continue URL: a path of this site only.
  next: v.optional(ReturnPathSchema),
  // Asked for in the desktop app: the link, opened in a browser, offers to open the app.
  via: v.optional(v.picklist([VIA_DESKTOP], 'Invalid via')),
})

export type SignInRequest = v.InferOutput<typeof SignInRequestSchema>

/** sendSignInLink answers whether a link went out, with the message to show either way. */
export const SignInResponseSchema = v.strictObject({ success: v.boolean(), message: v.string() })

export type SignInResponse = v.InferOutput<typeof SignInResponseSchema>

/** What Auth keeps of an account that tells whether, and when, it signed in. */
export interface AccountSignIns {
  emailVerified: boolean
  metadata: { lastSignInTime?: string | null }
}

/**
 * When the account last signed in (epoch ms), or null when it never did. Signing in is opening an
 * emailed link, which proves the address: an account whose address is not proved has never signed
 * in, whatever Auth's last sign-in says (its emulator stamps one on an account an administrator
 * creates, the invitation's, at its creation).
 */
export function lastSignInOf(account: AccountSignIns): number | null {
  if (!account.emailVerified) return null
  const at = account.metadata.lastSignInTime ? Date.parse(account.metadata.lastSignInTime) : NaN
  return Number.isFinite(at) ? at : null
}
