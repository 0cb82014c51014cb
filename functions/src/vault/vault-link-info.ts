// vaultLinkInfo: what a link is, who sent it and when it expires, for the page before Reveal.
// Changes nothing, so link previews and mail scanners spend nothing (beyond the rate limit).
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { lookAtLink } from './link-store.ts'
import { requesterOf } from './requester.ts'
import { admitVaultCall } from './vault-rate-limit.ts'

export const vaultLinkInfo = defineCallable('vaultLinkInfo', {}, async (caller, request, raw) => {
  const db = adminDb()
  await admitVaultCall(db, request.id, requesterOf(caller, raw).ip)
  return lookAtLink(db, request.id, request.findToken, Date.now())
})
