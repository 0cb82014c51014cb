// revokeVaultLink: the analyst who made a link burns it before it is opened (or before its last view).
import { HttpsError } from 'firebase-functions/v2/https'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { vaultMessages } from './create-vault-link.ts'
import { revokeLink } from './link-store.ts'

export const revokeVaultLink = defineCallable('revokeVaultLink', {}, async (caller, request) => {
  const revoked = await revokeLink(adminDb(), request.id, caller.uid, caller.email)
  if (revoked === null) throw new HttpsError('not-found', vaultMessages.noLink)
  return { revoked }
})
