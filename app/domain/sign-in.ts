// The sign-in contract shared by the browser and the functions: what the sign-in request carries,
// what the callables answer and the messages people see. Pure TypeScript and valibot only: Node
// runs it directly and the functions build compiles it into their package.
import * as v from 'valibot'

/** The spec's "text@text": anything more precise would reject addresses people really use. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/
export const INVALID_EMAIL = 'Invalid email'

/** Where the emailed link lands, in the web app and in the desktop shell. */
export const SIGN_IN_PATH = '/auth/redirect'

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
})

export type SignInRequest = v.InferOutput<typeof SignInRequestSchema>

/** sendSignInLink answers whether a link went out, with the message to show either way. */
export const SignInResponseSchema = v.strictObject({ success: v.boolean(), message: v.string() })

export type SignInResponse = v.InferOutput<typeof SignInResponseSchema>
