// createVaultLink: an analyst's browser has sealed a secret under a new link; this stores the
// ciphertext, the hashes of the link's tokens and its policy (never a key), with its audit event.
// A try sent again with the same request id (its answer was lost) answers the first try's id and
// writes nothing, so the browser still holds the key of the link that exists.
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { VAULT_LIMITS, vaultEventDocument, vaultLinkGatePath, vaultLinkPath, vaultSealedPath } from '#domain/vault.ts'
import { adminDb } from '../admin.ts'
import { once } from '../call-receipts.ts'
import { defineCallable } from '../define-callable.ts'
import { reportCaller } from '../reports/report-caller.ts'
import { recordVaultAudit } from './vault-audit.ts'

export const vaultMessages = {
  expiry: 'Choose an expiry between 1 hour and 30 days from now.',
  exists: 'This link exists already: create it again.',
  noLink: 'There is no such link of yours.',
} as const

export const createVaultLink = defineCallable('createVaultLink', {}, async (caller, request) => {
  const now = Date.now()
  const { minExpiryMs, maxExpiryMs, clockSkewMs, keepRecordMs } = VAULT_LIMITS
  const db = adminDb()
  const analyst = await reportCaller(db, caller, request.company)
  const link = { id: request.id, createdBy: caller.uid, company: request.company }
  const expiresAt = Timestamp.fromMillis(request.expiresAt)
  try {
    const { answer } = await once(db, caller.uid, 'createVaultLink', request, async (tx) => {
      // Checked for the first try only: a repeat later answers the link it made, however near its expiry now.
      if (request.expiresAt < now + minExpiryMs - clockSkewMs || request.expiresAt > now + maxExpiryMs + clockSkewMs)
        throw new HttpsError('invalid-argument', vaultMessages.expiry)
      tx.create(db.doc(vaultLinkPath(request.id)), {
        createdBy: caller.uid,
        createdByName: analyst.actor.name,
        company: request.company,
        companyName: analyst.company.companyName,
        label: request.label,
        createdAt: FieldValue.serverTimestamp(),
        expiresAt,
        // The record's TTL field: the analyst's list keeps an expired link a while, then it goes.
        purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
        maxViews: request.maxViews,
        views: 0,
        failedTries: 0,
        state: 'active',
        revokedAt: null,
        revokedBy: null,
        passphrase: request.kdf !== null,
        recipient: request.recipient,
        findTokenHash: request.findTokenHash,
        opens: [],
        files: request.files,
      })
      tx.create(db.doc(vaultSealedPath(request.id)), {
        openTokenHash: request.openTokenHash,
        kdf: request.kdf,
        ciphertext: request.ciphertext,
        iv: request.iv,
        // The sealed part's TTL field: the ciphertext goes at expiry.
        expiresAt,
      })
      // The file store keeps the link's files while this gate is open (decision 0035).
      if (request.files > 0)
        tx.create(db.doc(vaultLinkGatePath(request.id)), {
          open: true,
          expiresAt,
          purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
        })
      tx.create(
        db.collection(EVENTS_COLLECTION).doc(),
        vaultEventDocument('vault_link_created', link, FieldValue.serverTimestamp(), { byUid: caller.uid }),
      )
      recordVaultAudit(db, tx, 'vault_link.created', { ...link, label: request.label }, caller, {
        expiresAt: request.expiresAt,
        maxViews: request.maxViews,
        passphrase: request.kdf !== null,
        recipient: request.recipient,
        files: request.files,
      })
      return { id: request.id }
    })
    return answer
  } catch (error) {
    if ((error as { code?: unknown }).code === 6) throw new HttpsError('already-exists', vaultMessages.exists)
    throw error
  }
})
