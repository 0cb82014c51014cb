// getPasswordReuseKey: the key the analyst's browser hashes NT hashes with for a company's password
// audits (HMAC-SHA256), so reuse clusters compare across that company's audits while the hashes
// never leave the browser. Derived from a server secret and the company: nothing to store, and
// no company's key tells anything of another's.
import { createHmac } from 'node:crypto'
import { defineSecret } from 'firebase-functions/params'
import { HttpsError } from 'firebase-functions/v2/https'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { declaredSecrets } from '../search-config.ts'
import { importCaller } from './import-caller.ts'

/** A Secret Manager secret in production; a local placeholder in functions/.env.demo-sectest. */
export const passwordReuseSecret = defineSecret('PASSWORD_REUSE_SECRET')

export const getPasswordReuseKey = defineCallable(
  'getPasswordReuseKey',
  { secrets: declaredSecrets(passwordReuseSecret) },
  async (caller, request) => {
    await importCaller(adminDb(), caller, request.company, 'password_cracking')
    const key = passwordReuseKey(request.company)
    if (!key) throw new HttpsError('failed-precondition', reuseKeyMissing)
    return { key }
  },
)

export const reuseKeyMissing = 'Password audits are not set up on this server (PASSWORD_REUSE_SECRET).'

/** The company's reuse key (hex), or null when the server has no secret for it. */
export function passwordReuseKey(company: string): string | null {
  const secret = process.env.PASSWORD_REUSE_SECRET ?? ''
  if (secret.length < 16) return null
  return createHmac('sha256', secret).update(`password-reuse\u001f${company}`).digest('hex')
}
