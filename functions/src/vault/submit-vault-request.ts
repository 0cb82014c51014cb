// submitVaultRequest: the client's browser sends its sealed answer; the first one is kept.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { submitAnswer } from './request-store.ts'
import { requesterOf } from './requester.ts'

export const submitVaultRequest = defineCallable('submitVaultRequest', {}, (caller, request, raw) =>
  submitAnswer(adminDb(), request, requesterOf(caller, raw), Date.now()),
)
