// vaultRequestInfo: who asks, for which company and what, for the client before they answer.
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { lookAtRequest } from './request-store.ts'

export const vaultRequestInfo = defineCallable('vaultRequestInfo', {}, (_caller, request) =>
  lookAtRequest(adminDb(), request.id, request.submitToken, Date.now()),
)
