import { signInMessages } from '#domain/sign-in.ts'
import type { FormOutcome } from './email-link-form'

// The sign-in page's own words beside the fixed messages (#domain/sign-in.ts): the next step after each.

/** Under "not currently authorized": who can let the person in. */
export const NOT_AUTHORIZED_NEXT =
  "Ask your company's administrator to add this address, or write to us with Contact at the bottom of the page."

/** The Welcome dialog's answer to a mistyped address: the one-time code is not spent by it. */
export const OTHER_ADDRESS_MESSAGE =
  'This link was sent to another address. Type the address you asked for the link with: the link still works.'

/** How an answer of sendSignInLink looks: success, a wait (warning), or a refusal with its next step. */
export function outcomeOf(success: boolean, message: string): FormOutcome {
  if (success) return { tone: 'success', text: message }
  if (message === signInMessages.notAuthorized) return { tone: 'error', text: message, next: NOT_AUTHORIZED_NEXT }
  // Waiting is all it takes: a warning, not a failure.
  if (message === signInMessages.tooMany) return { tone: 'warning', text: message }
  return { tone: 'error', text: message }
}
