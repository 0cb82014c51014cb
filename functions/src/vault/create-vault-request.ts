// createVaultRequest: an analyst asks a client for a secret. Stored: what they ask, the hash of
// the link's submit token and the request's private key wrapped under their vault passphrase; for
// a request shared with the company's engagement, that key sealed to each colleague's vault key,
// each colleague checked here to be an analyst of the engagement (decision 0022), and the share
// the colleagues read, without the wrapped key (decision 0035).
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { VAULT_LIMITS, vaultEventDocument } from '#domain/vault.ts'
import { isSharedRequest, vaultRequestGatePath, vaultRequestPath, vaultRequestSharePath, vaultTeamKeyPath } from '#domain/vault-requests.ts'
import { adminDb } from '../admin.ts'
import { defineCallable } from '../define-callable.ts'
import { reportCaller } from '../reports/report-caller.ts'
import { vaultMessages } from './create-vault-link.ts'
import { recordVaultAudit } from './vault-audit.ts'
import { engagementKeys, teamMessages } from './vault-team.ts'

export const createVaultRequest = defineCallable('createVaultRequest', {}, async (caller, request) => {
  const now = Date.now()
  const { minExpiryMs, maxExpiryMs, clockSkewMs, keepRecordMs } = VAULT_LIMITS
  if (request.expiresAt < now + minExpiryMs - clockSkewMs || request.expiresAt > now + maxExpiryMs + clockSkewMs)
    throw new HttpsError('invalid-argument', vaultMessages.expiry)
  const db = adminDb()
  const analyst = await reportCaller(db, caller, request.company)
  const record = { id: request.id, createdBy: caller.uid, company: request.company }
  const teamUids = Object.keys(request.teamKeys)
  if (teamUids.length > 0 && !request.team) throw new HttpsError('invalid-argument', teamMessages.notEngagement)
  // Each colleague is an analyst of the engagement now, with the key the browser was given.
  const engaged =
    teamUids.length > 0
      ? new Map<string, string>((await engagementKeys(db, request.company)).map((m) => [m.uid, m.publicKey]))
      : new Map<string, string>()
  if (teamUids.some((uid) => uid === caller.uid || !engaged.has(uid))) throw new HttpsError('permission-denied', teamMessages.notEngagement)
  try {
    await db.runTransaction(async (tx) => {
      const shared = {
        createdBy: caller.uid,
        createdByName: analyst.actor.name,
        company: request.company,
        companyName: analyst.company.companyName,
        label: request.label,
        createdAt: FieldValue.serverTimestamp(),
        expiresAt: Timestamp.fromMillis(request.expiresAt),
        purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
        state: 'open',
        answeredAt: null,
        answeredFrom: null,
        team: request.team,
        teamUids,
      }
      tx.create(db.doc(vaultRequestPath(request.id)), {
        ...shared,
        submitTokenHash: request.submitTokenHash,
        wrappedKey: request.wrappedKey,
        answer: null,
      })
      if (isSharedRequest(shared)) tx.create(db.doc(vaultRequestSharePath(request.id)), shared)
      for (const uid of teamUids)
        tx.create(db.doc(vaultTeamKeyPath(request.id, uid)), {
          ...request.teamKeys[uid],
          publicKey: engaged.get(uid),
          addedBy: caller.uid,
          addedAt: FieldValue.serverTimestamp(),
          purgeAt: Timestamp.fromMillis(request.expiresAt + keepRecordMs),
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
      recordVaultAudit(db, tx, 'vault_request.created', { ...record, label: request.label }, caller, {
        expiresAt: request.expiresAt,
        ...(request.team ? { team: true, sharedWith: teamUids } : {}),
      })
    })
  } catch (error) {
    if ((error as { code?: unknown }).code === 6) throw new HttpsError('already-exists', vaultMessages.exists)
    throw error
  }
  return { id: request.id }
})
