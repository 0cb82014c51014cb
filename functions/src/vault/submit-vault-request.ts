// submitVaultRequest: the client's browser sends its sealed answer; the first one is kept.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { submitAnswer } from './request-store.ts'
import { requesterOf } from './requester.ts'
import { admitVaultCall } from './vault-rate-limit.ts'

export const submitVaultRequest = defineCallable('submitVaultRequest', {}, async (caller, request, raw) => {
  const db = adminDb()
  const who = requesterOf(caller, raw)
  await admitVaultCall(db, request.id, who.ip)
  return submitAnswer(db, request, who, Date.now())
})
