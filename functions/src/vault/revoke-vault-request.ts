// revokeVaultRequest: the analyst who asked withdraws the request (and any answer with it).
import { HttpsError } from 'firebase-functions/v2/https'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { vaultMessages } from './create-vault-link.ts'
import { revokeRequest } from './request-store.ts'

export const revokeVaultRequest = defineCallable('revokeVaultRequest', {}, async (caller, request) => {
  const revoked = await revokeRequest(adminDb(), request.id, caller.uid, caller.email)
  if (revoked === null) throw new HttpsError('not-found', vaultMessages.noLink)
  return { revoked }
})
