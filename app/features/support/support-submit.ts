// What sending the support form leads to, apart from React: testable without a DOM.
import * as v from 'valibot'
import {
  SignedOutSupportRequestSchema,
  SupportRequestSchema,
  supportMessages,
  type SignedOutSupportRequest,
  type SupportRequest,
  type SupportResponse,
} from '#domain/support.ts'

export type SupportOutcome =
  // Nothing was sent: the form shows `error` next to the message.
  | { kind: 'invalid'; error: string }
  | { kind: 'sent'; notice: string }
  // The dialog stays open with the typed message, so that trying again is one click.
  | { kind: 'failed'; notice: string }

/** Sends the form; signed out (`email` given), the sender's own address goes with it. */
export async function submitSupport(
  form: { message: string; request_type: string; email?: string },
  send: (request: SupportRequest | SignedOutSupportRequest) => Promise<SupportResponse>,
): Promise<SupportOutcome> {
  const parsed = form.email === undefined ? v.safeParse(SupportRequestSchema, form) : v.safeParse(SignedOutSupportRequestSchema, form)
  if (!parsed.success) return { kind: 'invalid', error: parsed.issues[0].message }
  try {
    const { success } = await send(parsed.output)
    return success ? { kind: 'sent', notice: supportMessages.sent } : { kind: 'failed', notice: supportMessages.serverFailed }
  } catch {
    return { kind: 'failed', notice: supportMessages.failed }
  }
}
