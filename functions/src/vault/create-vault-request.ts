// createVaultRequest: an analyst asks a client for a secret. Stored: what they ask, the hash of
// the link's submit token and the request's private key wrapped under their vault passphrase.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { VAULT_LIMITS, vaultEventDocument } from '#domain/vault.ts'
import { vaultRequestGatePath, vaultRequestPath } from '#domain/vault-requests.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { reportCaller } from '../reports/report-caller.ts'
import { vaultMessages } from './create-vault-link.ts'
import { recordVaultAudit } from './vault-audit.ts'

export const createVaultRequest = defineCallable('createVaultRequest', {}, async (caller, request) => {
  const now = Date.now()
  const { minExpiryMs, maxExpiryMs, clockSkewMs, keepRecordMs } = VAULT_LIMITS
  if (request.expiresAt < now + minExpiryMs - clockSkewMs || request.expiresAt > now + maxExpiryMs + clockSkewMs)
    throw new HttpsError('invalid-argument', vaultMessages.expiry)
  const db = adminDb()
  const analyst = await reportCaller(db, caller, request.company)
  const record = { id: request.id, createdBy: caller.uid, company: request.company }
  try {
    await db.runTransaction(async (tx) => {
      tx.create(db.doc(vaultRequestPath(request.id)), {
        createdBy: caller.uid,
        createdByName: analyst.actor.name,
        company: request.company,
        companyName: analyst.company.companyName,
        label: request.label,
        createdAt: FieldValue.serverTimestamp(),
        expiresAt: Timestamp.fromMillis(request.expiresAt),
        purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
        state: 'open',
        submitTokenHash: request.submitTokenHash,
        wrappedKey: request.wrappedKey,
        answer: null,
        answeredAt: null,
        answeredFrom: null,
      })
      // The file store's gate: open for uploads with the files token until the answer or expiry.
      if (request.filesTokenHash)
        tx.create(db.doc(vaultRequestGatePath(request.id)), {
          filesTokenHash: request.filesTokenHash,
          open: true,
          expiresAt: Timestamp.fromMillis(request.expiresAt),
          purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
        })
      tx.create(
        db.collection(EVENTS_COLLECTION).doc(),
        vaultEventDocument('vault_request_created', record, FieldValue.serverTimestamp(), { byUid: caller.uid }),
      )
      recordVaultAudit(db, tx, 'vault_request.created', { ...record, label: request.label }, caller, { expiresAt: request.expiresAt })
    })
  } catch (error) {
    if ((error as { code?: unknown }).code === 6) throw new HttpsError('already-exists', vaultMessages.exists)
    throw error
  }
  return { id: request.id }
})
