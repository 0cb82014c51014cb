// claimVaultLink: the recipient clicked Reveal. The one call that spends a view (link-store.ts).
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { claimLink } from './link-store.ts'
import { requesterOf } from './requester.ts'
import { admitVaultCall } from './vault-rate-limit.ts'

export const claimVaultLink = defineCallable('claimVaultLink', {}, async (caller, request, raw) => {
  const db = adminDb()
  const who = requesterOf(caller, raw)
  await admitVaultCall(db, request.id, who.ip)
  return claimLink(db, request, who, Date.now())
})
