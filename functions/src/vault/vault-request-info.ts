// vaultRequestInfo: who asks, for which company and what, for the client before they answer.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { lookAtRequest } from './request-store.ts'
import { requesterOf } from './requester.ts'
import { admitVaultCall } from './vault-rate-limit.ts'

export const vaultRequestInfo = defineCallable('vaultRequestInfo', {}, async (caller, request, raw) => {
  const db = adminDb()
  await admitVaultCall(db, request.id, requesterOf(caller, raw).ip)
  return lookAtRequest(db, request.id, request.submitToken, Date.now())
})
