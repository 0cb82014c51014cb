// handleSupportEmail: a signed-in person writes to support from the app. The message is mailed to
// the support inbox (SUPPORT_INBOX) with who sent it and for which company, and kept in
// support_messages so that nothing is lost when the mail server is down.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { brand } from '#domain/brand.ts'
import { companyFromDocument, companyPath } from '#domain/companies.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { EMAIL_PATTERN } from '#domain/sign-in.ts'
import { SUPPORT_MESSAGES_COLLECTION, supportMessageDocument, supportRequestTypeLabels, type SupportRequest } from '#domain/support.ts'
import { readPreferences, userPreferencesPath } from '#domain/users-preferences.ts'
import { readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { adminDb } from './admin.ts'
import { ConfigError, mailConfig } from './config.ts'
import { defineCallable } from './define-callable.ts'
import { sendMail, type OutgoingMail } from './mailer.ts'
import { callerIp } from './client-ip.ts'
import { consumeRateLimits, type RateLimit } from './rate-limit.ts'
import { escapeHtml } from './sign-in-mail.ts'

// Enough for a few follow-ups; not enough to flood the inbox.
export const SUPPORT_RATE_LIMIT = { kind: 'support-user', limit: 5, windowMs: 10 * 60_000 } as const

export interface SupportSender {
  /** Null when the message was sent signed out: the address is the sender's own word. */
  uid: string | null
  email: string | null
  /** Whether a sign-in proved the address (`email_verified`); only then is it the sender's. */
  emailVerified: boolean
  /** Whatever the person set as their name: shown as theirs, never as the sender. */
  displayName: string | null
}

/** The address answers go to: only one the sender proved they hold. */
export const supportReplyTo = (sender: SupportSender): string | null => (sender.emailVerified ? sender.email : null)

const senderAddress = (sender: SupportSender) =>
  sender.email ? `${sender.email}${sender.emailVerified ? '' : ' (not verified)'}` : 'no email'

export interface SupportCompany {
  slug: string
  name: string | null
}

export function supportInbox(env: NodeJS.ProcessEnv = process.env): string {
  const inbox = env.SUPPORT_INBOX?.trim()
  if (!inbox) throw new ConfigError('SUPPORT_INBOX is not set')
  if (!EMAIL_PATTERN.test(inbox)) throw new ConfigError('SUPPORT_INBOX is not an address')
  return inbox
}

const companyLabel = (company: SupportCompany | null) =>
  company ? (company.name ? `${company.name} (${company.slug})` : company.slug) : 'none'

// Subject and identity lines carry no part of the message: only the body does.
export function supportMail(input: {
  sender: SupportSender
  company: SupportCompany | null
  request: SupportRequest
  sentAt: Date
}): Omit<OutgoingMail, 'to'> {
  const { sender, company, request, sentAt } = input
  const type = supportRequestTypeLabels[request.request_type]
  const who = supportReplyTo(sender) ?? sender.uid ?? 'unknown'
  const subject = `[${brand.name} support] ${type} from ${who}`
  const facts: [string, string][] = [
    ['Request type', `${type} (${request.request_type})`],
    ['From', senderAddress(sender)],
    ...(sender.displayName ? ([['Name (self-declared)', sender.displayName]] as [string, string][]) : []),
    ['User id', sender.uid ?? 'not signed in (address not verified)'],
    ['Company', companyLabel(company)],
    ['Sent at', sentAt.toISOString()],
  ]
  const text = [...facts.map(([k, value]) => `${k}: ${value}`), '', request.message, ''].join('\n')

  const e = escapeHtml
  const rows = facts
    .map(
      ([k, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;color:#57606a;font-weight:600;">${e(k)}</th><td style="padding:2px 0;">${e(value)}</td></tr>`,
    )
    .join('\n')
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#161b22;font-size:15px;line-height:22px;">
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;">
${rows}
</table>
<div style="white-space:pre-wrap;border-left:3px solid #dde1e7;padding:4px 0 4px 12px;">${e(request.message)}</div>
</body>
</html>
`
  return { subject, text, html }
}

// The company the sender works in right now, chosen the way the app chooses it.
async function companyOf(db: Firestore, uid: string): Promise<SupportCompany | null> {
  const [access, preferences] = await db.getAll(db.doc(userAccessPath(uid)), db.doc(userPreferencesPath(uid)))
  const slug = selectCompany(readUserAccess(access?.data()).companies, readPreferences(preferences?.data()).defaultCompany)
  if (!slug) return null
  return { slug, name: companyFromDocument(slug, (await db.doc(companyPath(slug)).get()).data())?.companyName ?? null }
}

// Logged instead of the error itself: an SMTP error can quote the message it failed to send.
function errorSummary(error: unknown): Record<string, string | undefined> {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined
  return { error: error instanceof Error ? error.name : typeof error, code }
}

// Mails the message to the support inbox and keeps it in support_messages; true when the mail went.
async function deliver(
  db: Firestore,
  input: { sender: SupportSender; company: SupportCompany | null; request: SupportRequest; sentAt: Date },
): Promise<boolean> {
  const { sender, company, request: support, sentAt } = input
  const uid = sender.uid
  let delivered = false
  try {
    const mail: OutgoingMail & { replyTo?: string } = {
      to: supportInbox(),
      ...supportMail({ sender, company, request: support, sentAt }),
      // Answering the mail answers the sender, when the address is proved to be theirs.
      ...(supportReplyTo(sender) ? { replyTo: supportReplyTo(sender)! } : {}),
    }
    await sendMail(mailConfig(), mail)
    delivered = true
  } catch (error) {
    logger.error('handleSupportEmail: the mail could not be sent', { uid, ...errorSummary(error) })
  }

  try {
    await db
      .collection(SUPPORT_MESSAGES_COLLECTION)
      .add(
        supportMessageDocument(
          { request: support, uid, email: sender.email, company: company?.slug ?? null, delivered },
          FieldValue.serverTimestamp(),
        ),
      )
  } catch (error) {
    // The mail, if it went, is the record that counts: the sender need not write again.
    logger.error('handleSupportEmail: the message could not be stored', { uid, delivered, ...errorSummary(error) })
  }
  return delivered
}

export const handleSupportEmail = defineCallable('handleSupportEmail', {}, async ({ uid, token }, support) => {
  const sentAt = new Date()
  const sender: SupportSender = {
    uid,
    email: typeof token.email === 'string' ? token.email : null,
    emailVerified: token.email_verified === true,
    displayName: typeof token.name === 'string' && token.name.trim() ? token.name.trim() : null,
  }
  const db = adminDb()

  let company: SupportCompany | null
  try {
    if (!(await consumeRateLimits(db, [{ ...SUPPORT_RATE_LIMIT, key: uid }], sentAt.getTime()))) {
      logger.warn('handleSupportEmail: rate limited', { uid })
      return { success: false }
    }
    company = await companyOf(db, uid)
  } catch (error) {
    logger.error('handleSupportEmail: checking the request failed', { uid, ...errorSummary(error) })
    return { success: false }
  }

  const delivered = await deliver(db, { sender, company, request: support, sentAt })
  logger.info('handleSupportEmail: handled', { uid, request_type: support.request_type, delivered })
  return { success: delivered }
})

// Signed out: per address, and per network address so that one sender cannot cycle addresses.
export const SIGNED_OUT_SUPPORT_RATE_LIMITS = {
  address: { kind: 'support-signed-out-address', limit: 3, windowMs: 60 * 60_000 },
  ip: { kind: 'support-signed-out-ip', limit: 20, windowMs: 60 * 60_000 },
} as const

export const handleSignedOutSupportEmail = defineCallable(
  'handleSignedOutSupportEmail',
  {},
  async (_caller, { email, ...support }, request) => {
    const sentAt = new Date()
    const db = adminDb()
    const limits: RateLimit[] = [{ ...SIGNED_OUT_SUPPORT_RATE_LIMITS.address, key: email }]
    const ip = callerIp(request.rawRequest)
    if (ip) limits.push({ ...SIGNED_OUT_SUPPORT_RATE_LIMITS.ip, key: ip })
    try {
      if (!(await consumeRateLimits(db, limits, sentAt.getTime()))) {
        logger.warn('handleSignedOutSupportEmail: rate limited', { domain: email.slice(email.indexOf('@')) })
        return { success: false }
      }
    } catch (error) {
      logger.error('handleSignedOutSupportEmail: checking the request failed', errorSummary(error))
      return { success: false }
    }
    const delivered = await deliver(db, {
      sender: { uid: null, email, emailVerified: false, displayName: null },
      company: null,
      request: support,
      sentAt,
    })
    logger.info('handleSignedOutSupportEmail: handled', { request_type: support.request_type, delivered })
    return { success: delivered }
  },
)
