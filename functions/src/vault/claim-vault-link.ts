// claimVaultLink: the recipient clicked Reveal. The one call that spends a view (link-store.ts).
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { claimLink } from './link-store.ts'
import { requesterOf } from './requester.ts'

export const claimVaultLink = defineCallable('claimVaultLink', {}, (caller, request, raw) =>
  claimLink(adminDb(), request, requesterOf(caller, raw), Date.now()),
)
