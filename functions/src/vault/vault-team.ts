// Team access to request answers (decision 0022): the analysts' vault keys, who counts as the
// analysts of a company's engagement, and the opening of an answer, audited for everyone who opens
// it. The server handles public keys, wrapped keys and ciphertext only.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { isEngagementAnalyst, seesAllCompanies } from '#domain/access.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import { vaultEventDocument } from '#domain/vault.ts'
import {
  VAULT_KEYS_COLLECTION,
  vaultKeyFromDocument,
  vaultKeyPath,
  type OpenVaultRequestResponse,
  type VaultTeamMember,
} from '#domain/vault-keys.ts'
import { vaultRequestFromDocument, vaultRequestPath, vaultTeamKeyPath } from '#domain/vault-requests.ts'
import { adminDb } from '../admin.ts'
import { defineCallable, type Caller } from '../define-callable.ts'
import { reportCaller } from '../reports/report-caller.ts'
import { vaultMessages } from './create-vault-link.ts'
import { recordVaultAudit } from './vault-audit.ts'

export const teamMessages = {
  notEngagement: 'Only the analysts of this company’s engagement can be given a request: ask again without the ones who are not.',
  noLongerEngaged: 'You are no longer an analyst of this company’s engagement.',
  noAnswer: 'There is no answer to open yet.',
  notShared: 'This request was not shared with you.',
} as const

/** Whether a users_access document (as stored, another person's) makes them an analyst of `slug`'s engagement. */
export function engagedByDocument(data: unknown, slug: string): boolean {
  if (data == null) return false
  try {
    const stored = readUserAccess(data)
    const access = accessFromDocument(stored, { accessLevel: null, userType: null })
    return isEngagementAnalyst(access, stored.companies.includes(slug) || seesAllCompanies(access))
  } catch {
    return false
  }
}

/** The analysts of `slug`'s engagement who published a vault key, with that key. */
export async function engagementKeys(db: Firestore, slug: string): Promise<VaultTeamMember[]> {
  const keys = await db.collection(VAULT_KEYS_COLLECTION).get()
  if (keys.empty) return []
  const access = await db.getAll(...keys.docs.map((d) => db.doc(userAccessPath(d.id))))
  return keys.docs.flatMap((d, i) => {
    const key = vaultKeyFromDocument(d.data())
    if (!key || !engagedByDocument(access[i]?.data(), slug)) return []
    return [{ uid: d.id, name: key.name || d.id, publicKey: key.publicKey }]
  })
}

/** The caller, an analyst of `slug`'s engagement: permission-denied otherwise. */
async function engagedCaller(db: Firestore, caller: Caller, slug: string) {
  const analyst = await reportCaller(db, caller, slug)
  if (!isEngagementAnalyst(analyst.access, true)) throw new HttpsError('permission-denied', teamMessages.noLongerEngaged)
  return analyst
}

const displayName = (caller: Caller) => (typeof caller.token.name === 'string' && caller.token.name.trim()) || caller.email || caller.uid

export const setVaultKey = defineCallable('setVaultKey', {}, async (caller, request) => {
  await adminDb()
    .doc(vaultKeyPath(caller.uid))
    .set({
      publicKey: request.publicKey,
      wrappedKey: request.wrappedKey,
      name: displayName(caller),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: caller.email ?? caller.uid,
    })
  return { saved: true as const }
})

export const vaultTeamKeys = defineCallable('vaultTeamKeys', {}, async (caller, request) => {
  const db = adminDb()
  await engagedCaller(db, caller, request.company)
  const members = await engagementKeys(db, request.company)
  return { members: members.filter((m) => m.uid !== caller.uid) }
})

/** The answer and, for a colleague, their sealed request key; one audited opening. */
export async function openRequest(db: Firestore, caller: Caller, id: string): Promise<OpenVaultRequestResponse> {
  const request = vaultRequestFromDocument(id, (await db.doc(vaultRequestPath(id)).get()).data())
  if (!request) throw new HttpsError('not-found', vaultMessages.noLink)
  let opened: OpenVaultRequestResponse
  const owner = request.createdBy === caller.uid
  if (!owner && !(request.team && request.teamUids.includes(caller.uid))) throw new HttpsError('not-found', vaultMessages.noLink)
  if (!owner) await engagedCaller(db, caller, request.company)
  if (request.state !== 'answered' || !request.answer) throw new HttpsError('failed-precondition', teamMessages.noAnswer)
  if (owner) opened = { as: 'owner', answer: request.answer }
  else {
    const sealed = (await db.doc(vaultTeamKeyPath(id, caller.uid)).get()).data() as
      { enc?: unknown; ciphertext?: unknown; publicKey?: unknown } | undefined
    if (typeof sealed?.enc !== 'string' || typeof sealed.ciphertext !== 'string' || typeof sealed.publicKey !== 'string')
      throw new HttpsError('not-found', teamMessages.notShared)
    opened = {
      as: 'team',
      answer: request.answer,
      teamKey: { enc: sealed.enc, ciphertext: sealed.ciphertext },
      publicKey: sealed.publicKey,
    }
  }
  const batch = db.batch()
  batch.create(
    db.collection(EVENTS_COLLECTION).doc(),
    vaultEventDocument('vault_request_opened', request, FieldValue.serverTimestamp(), { byUid: caller.uid }),
  )
  recordVaultAudit(db, batch, 'vault_request.opened', request, caller, { as: opened.as })
  await batch.commit()
  return opened
}

export const openVaultRequest = defineCallable('openVaultRequest', {}, (caller, request) => openRequest(adminDb(), caller, request.id))
