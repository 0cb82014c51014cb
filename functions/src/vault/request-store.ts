// The request links' work, apart from the callables so tests run it directly: look, answer and
// withdraw, each one commit with its audit event.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import { timingSafeEqual } from 'node:crypto'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { vaultEventDocument } from '#domain/vault.ts'
import { tokenHash } from '#domain/vault-crypto.ts'
import {
  isSharedRequest,
  vaultRequestFromDocument,
  vaultRequestGatePath,
  vaultRequestPath,
  vaultRequestSharePath,
  type SubmitVaultRequestResponse,
  type VaultRequest,
  type VaultRequestInfo,
} from '#domain/vault-requests.ts'
import type { Requester } from './link-store.ts'
import { recordVaultAudit } from './vault-audit.ts'

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

function closedState(request: VaultRequest, now: number): 'answered' | 'revoked' | 'expired' | null {
  if (request.state === 'answered') return 'answered'
  if (request.state === 'revoked') return 'revoked'
  return request.expiresAt <= now ? 'expired' : null
}

/** What the client sees before answering: who asks, for which company, what. Changes nothing. */
export async function lookAtRequest(db: Firestore, id: string, submitToken: string, now: number): Promise<VaultRequestInfo> {
  const request = vaultRequestFromDocument(id, (await db.doc(vaultRequestPath(id)).get()).data())
  if (!request || !sameHash(await tokenHash(submitToken), request.submitTokenHash)) return { status: 'not-found' }
  return {
    status: closedState(request, now) ?? 'open',
    senderName: request.createdByName,
    companyName: request.companyName,
    company: request.company,
    label: request.label,
    expiresAt: request.expiresAt,
  }
}

const FAILED_PRECONDITION = 9

/**
 * Stores the one answer of a request: one commit, on the condition that the request is as it was
 * read, so of concurrent answers exactly one is kept and the others are told it was answered.
 */
export async function submitAnswer(
  db: Firestore,
  input: { id: string; submitToken: string; answer: { enc: string; ciphertext: string } },
  who: Requester,
  now: number,
): Promise<SubmitVaultRequestResponse> {
  const submitHash = await tokenHash(input.submitToken)
  const ref = db.doc(vaultRequestPath(input.id))
  for (let attempt = 0; ; attempt++) {
    const snapshot = await ref.get()
    const request = vaultRequestFromDocument(input.id, snapshot.data())
    if (!request || !snapshot.updateTime || !sameHash(submitHash, request.submitTokenHash))
      return { outcome: 'refused', reason: 'not-found' }
    const closed = closedState(request, now)
    if (closed) return { outcome: 'refused', reason: closed }
    const batch = db.batch()
    const answered = { state: 'answered', answeredAt: FieldValue.serverTimestamp(), answeredFrom: { ip: who.ip, browser: who.browser } }
    batch.update(ref, { ...answered, answer: input.answer }, { lastUpdateTime: snapshot.updateTime })
    // The colleagues' share says it was answered; the answer itself stays on the request. (A set:
    // a request shared before shares existed has none, and its answer must not fail for that.)
    if (isSharedRequest(request)) batch.set(db.doc(vaultRequestSharePath(input.id)), answered, { merge: true })
    batch.create(
      db.collection(EVENTS_COLLECTION).doc(),
      vaultEventDocument('vault_request_answered', request, FieldValue.serverTimestamp(), {
        ip: who.ip,
        browser: who.browser,
        byUid: who.uid,
      }),
    )
    recordVaultAudit(db, batch, 'vault_request.answered', request, who, { ip: who.ip, browser: who.browser })
    // No more uploads once the answer is in; its files stay until the request goes.
    batch.set(
      db.doc(vaultRequestGatePath(input.id)),
      { open: false, closed: 'answered', closedAt: FieldValue.serverTimestamp() },
      { merge: true },
    )
    try {
      await batch.commit()
      return { outcome: 'stored' }
    } catch (error) {
      if ((error as { code?: unknown }).code !== FAILED_PRECONDITION || attempt >= 30) throw error
    }
  }
}

/** Withdraws a request its analyst made; an answer already given goes with it. */
export async function revokeRequest(db: Firestore, id: string, uid: string, email: string | null = null): Promise<boolean | null> {
  return db.runTransaction(async (tx) => {
    const ref = db.doc(vaultRequestPath(id))
    const request = vaultRequestFromDocument(id, (await tx.get(ref)).data())
    if (!request || request.createdBy !== uid) return null
    if (request.state === 'revoked') return false
    tx.update(ref, { state: 'revoked', answer: null })
    if (isSharedRequest(request)) tx.set(db.doc(vaultRequestSharePath(id)), { state: 'revoked' }, { merge: true })
    // Its files go with it (decision 0035).
    tx.set(db.doc(vaultRequestGatePath(id)), { open: false, closed: 'withdrawn', closedAt: FieldValue.serverTimestamp() }, { merge: true })
    tx.create(
      db.collection(EVENTS_COLLECTION).doc(),
      vaultEventDocument('vault_request_revoked', request, FieldValue.serverTimestamp(), { byUid: uid }),
    )
    recordVaultAudit(db, tx, 'vault_request.revoked', request, { uid, email }, { answered: request.state === 'answered' })
    return true
  })
}
