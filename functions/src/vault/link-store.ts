// The share links' work, apart from the callables so tests run it directly: create, look, claim
// and revoke, each in one Firestore transaction with its audit event.
import {
  FieldValue,
  Timestamp,
  type DocumentData,
  type DocumentReference,
  type Firestore,
  type SetOptions,
  type Transaction,
} from 'firebase-admin/firestore'
import { timingSafeEqual } from 'node:crypto'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import {
  linkPolicy,
  VAULT_LIMITS,
  vaultEventDocument,
  vaultLinkFromDocument,
  vaultLinkGatePath,
  vaultLinkPath,
  vaultSealedFromDocument,
  vaultSealedPath,
  type ClaimVaultLinkResponse,
  type VaultLink,
  type VaultLinkInfo,
} from '#domain/vault.ts'
import { tokenHash } from '#domain/vault-crypto.ts'
import { recordVaultAudit } from './vault-audit.ts'

/** Who asks, as far as the request tells: the address of a signed-in caller, where from, which browser. */
export interface Requester {
  uid: string | null
  email: string | null
  emailVerified: boolean
  ip: string
  browser: string
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

async function readLink(db: Firestore, tx: Transaction, id: string): Promise<VaultLink | null> {
  return vaultLinkFromDocument(id, (await tx.get(db.doc(vaultLinkPath(id)))).data())
}

/**
 * Shuts the files gate of a link with files in the commit that closes the link, so the file store
 * lets its files go (decision 0035). A set, so that a link made before gates existed gets one.
 */
function shutFilesGate(
  db: Firestore,
  writer: { set(ref: DocumentReference, data: DocumentData, options: SetOptions): unknown },
  link: VaultLink,
  closed: 'used' | 'revoked',
): void {
  if (link.files === 0) return
  const gate = {
    open: false,
    closed,
    closedAt: FieldValue.serverTimestamp(),
    expiresAt: Timestamp.fromMillis(link.expiresAt),
    purgeAt: Timestamp.fromMillis(link.expiresAt + VAULT_LIMITS.keepRecordMs),
  }
  writer.set(db.doc(vaultLinkGatePath(link.id)), gate, { merge: true })
}

/** The link's facts the recipient sees once they hold the link. */
const facts = (link: VaultLink) => ({
  senderName: link.createdByName,
  companyName: link.companyName,
  label: link.label,
  expiresAt: link.expiresAt,
})

/** Used, revoked or expired, or null when the link may still be opened at `now`. */
function closedState(link: VaultLink, now: number): 'used' | 'revoked' | 'expired' | null {
  if (link.state === 'used') return 'used'
  if (link.state === 'revoked') return 'revoked'
  return link.expiresAt <= now ? 'expired' : null
}

/** A look at a link that changes nothing: a preview or a scanner may ask it as often as it likes. */
export async function lookAtLink(db: Firestore, id: string, findToken: string, now: number): Promise<VaultLinkInfo> {
  const snapshot = await db.doc(vaultLinkPath(id)).get()
  const link = vaultLinkFromDocument(id, snapshot.data())
  if (!link || !sameHash(await tokenHash(findToken), link.findTokenHash)) return { status: 'not-found' }
  const closed = closedState(link, now)
  if (closed) return { status: closed, ...facts(link) }
  const sealed = vaultSealedFromDocument((await db.doc(vaultSealedPath(id)).get()).data())
  if (!sealed) return { status: 'expired', ...facts(link) }
  return {
    status: 'ready',
    ...facts(link),
    viewsLeft: link.maxViews - link.views,
    kdf: sealed.kdf,
    recipient: link.recipient,
    files: link.files,
  }
}

type ClaimResult = ClaimVaultLinkResponse

/** The commit lost a race: the link changed since it was read. */
const FAILED_PRECONDITION = 9
const ABORTED = 10
const CLAIM_ATTEMPTS = 60

/**
 * One claim. The find token must match (else nothing is counted), the link must be open, a named
 * recipient must be the caller, and the open token must match; a mismatch there counts a failed
 * try and the fifth revokes the link. A match counts a view; the last view deletes the
 * ciphertext. Every outcome that changes the link is one atomic commit, with its audit event,
 * on the condition that the link is as it was read (its update time): of concurrent claims
 * exactly one commits per state of the link, the others read again. So exactly as many claims
 * win as the link has views, however many arrive at once (decision 0018 says why this is not the
 * SDK's locking transaction).
 */
export async function claimLink(
  db: Firestore,
  input: { id: string; findToken: string; openToken: string },
  who: Requester,
  now: number,
): Promise<ClaimResult> {
  const findHash = await tokenHash(input.findToken)
  const openHash = await tokenHash(input.openToken)
  for (let attempt = 0; ; attempt++) {
    try {
      return await claimOnce(db, input.id, findHash, openHash, who, now)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if ((code !== FAILED_PRECONDITION && code !== ABORTED) || attempt >= CLAIM_ATTEMPTS) throw error
      // Spread the retries of a crowd of claims.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * (attempt + 1))))
    }
  }
}

async function claimOnce(db: Firestore, id: string, findHash: string, openHash: string, who: Requester, now: number): Promise<ClaimResult> {
  const refused = (reason: Extract<ClaimResult, { outcome: 'refused' }>['reason'], triesLeft: number | null = null): ClaimResult => ({
    outcome: 'refused',
    reason,
    triesLeft,
  })
  const linkRef = db.doc(vaultLinkPath(id))
  const sealedRef = db.doc(vaultSealedPath(id))
  const [linkSnapshot, sealedSnapshot] = await db.getAll(linkRef, sealedRef)
  const link = vaultLinkFromDocument(id, linkSnapshot?.data())
  if (!link || !linkSnapshot?.updateTime || !sameHash(findHash, link.findTokenHash)) return refused('not-found')
  const sealed = vaultSealedFromDocument(sealedSnapshot?.data())
  const closed = closedState(link, now) ?? (sealed ? null : 'expired')
  if (closed || !sealed) return refused(closed ?? 'expired')
  if (link.recipient) {
    if (!who.email) return refused('sign-in')
    if (who.email.toLowerCase() !== link.recipient || !who.emailVerified) return refused('wrong-recipient')
  }
  const batch = db.batch()
  const unchanged = { lastUpdateTime: linkSnapshot.updateTime }
  const event = (type: Parameters<typeof vaultEventDocument>[0], reason?: string) =>
    batch.create(
      db.collection(EVENTS_COLLECTION).doc(),
      vaultEventDocument(type, link, FieldValue.serverTimestamp(), {
        ip: who.ip,
        browser: who.browser,
        byUid: who.uid,
        ...(reason ? { reason } : {}),
      }),
    )
  if (!sameHash(openHash, sealed.openTokenHash)) {
    const failed = link.failedTries + 1
    const left = Math.max(0, VAULT_LIMITS.failedTries - failed)
    if (left === 0) {
      batch.update(
        linkRef,
        { failedTries: failed, state: 'revoked', revokedBy: 'passphrase', revokedAt: FieldValue.serverTimestamp() },
        unchanged,
      )
      batch.delete(sealedRef)
      shutFilesGate(db, batch, link, 'revoked')
      event('vault_link_failed')
      event('vault_link_revoked', 'passphrase')
      recordVaultAudit(db, batch, 'vault_link.open_failed', link, who, { ip: who.ip, browser: who.browser, failedTries: failed })
      recordVaultAudit(db, batch, 'vault_link.revoked', link, who, { reason: 'passphrase', failedTries: failed })
    } else {
      batch.update(linkRef, { failedTries: failed }, unchanged)
      event('vault_link_failed')
      recordVaultAudit(db, batch, 'vault_link.open_failed', link, who, { ip: who.ip, browser: who.browser, failedTries: failed })
    }
    await batch.commit()
    return refused('wrong-passphrase', left)
  }
  const views = link.views + 1
  const last = views >= link.maxViews
  batch.update(
    linkRef,
    {
      views,
      ...(last ? { state: 'used' } : {}),
      opens: FieldValue.arrayUnion({ at: Timestamp.fromMillis(now), ip: who.ip, browser: who.browser, n: views }),
    },
    unchanged,
  )
  if (last) {
    batch.delete(sealedRef)
    shutFilesGate(db, batch, link, 'used')
  }
  event('vault_link_opened')
  recordVaultAudit(db, batch, 'vault_link.opened', link, who, { ip: who.ip, browser: who.browser, views, maxViews: link.maxViews })
  await batch.commit()
  return { outcome: 'opened', ciphertext: sealed.ciphertext, iv: sealed.iv, policy: linkPolicy(link), viewsLeft: link.maxViews - views }
}

/** Revokes a link its analyst made: its ciphertext goes at once. False when it was closed already. */
export async function revokeLink(db: Firestore, id: string, uid: string, email: string | null = null): Promise<boolean | null> {
  return db.runTransaction(async (tx) => {
    const link = await readLink(db, tx, id)
    if (!link || link.createdBy !== uid) return null
    if (link.state !== 'active') return false
    tx.update(db.doc(vaultLinkPath(id)), { state: 'revoked', revokedBy: 'analyst', revokedAt: FieldValue.serverTimestamp() })
    tx.delete(db.doc(vaultSealedPath(id)))
    shutFilesGate(db, tx, link, 'revoked')
    tx.create(
      db.collection(EVENTS_COLLECTION).doc(),
      vaultEventDocument('vault_link_revoked', link, FieldValue.serverTimestamp(), { byUid: uid, reason: 'analyst' }),
    )
    recordVaultAudit(db, tx, 'vault_link.revoked', link, { uid, email }, { reason: 'analyst', views: link.views })
    return true
  })
}
