// addFindingComment: a comment on a finding, for the client (everyone who reads the finding) or
// internal (analysts only). People named as @address in the body, and people picked in the comment
// box (their uids in `mentions`, their "@name" in the body: the demo's conversations mention by
// name, which the address alone never matched), who may read it are told, and only they are stored
// as its mentions: an address of anyone else, an account of another company included, reads
// exactly like an address without one, so a comment tells nobody who has an account. The client
// API's POST /findings/{id}/comments posts through postFindingComment too.
import type { UserRecord } from 'firebase-admin/auth'
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesInternalComments } from '#domain/access.ts'
import { COMMENT_MENTIONS_MAX, findingCommentsPath, mentionStands, type CommentVisibility } from '#domain/finding-comments.ts'
import { findingPath, type Finding } from '#domain/findings.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { adminAuth, adminDb } from '../admin.ts'
import type { Transact } from '../call-receipts.ts'
import { callerMessages, defineCallable } from '../define-callable.ts'
import { readFinding } from './finding-store.ts'
import { notifyCompany, readsNotice } from './notify.ts'
import { assertSeesResults, findingLink, reportCaller, reportMessages, type ReportCaller } from './report-caller.ts'

const MENTION = /(?:^|[^\w.@])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g

/** The addresses a comment mentions (`@name@example.com`), lowercased, once each. */
export function mentionedAddresses(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map((m) => m[1]!.replace(/\.+$/, '').toLowerCase()))]
}

/** A person's name and address as the comment box wrote their mention (listMentionCandidates gives the same). */
const nameOf = (user: UserRecord) => ({ name: user.displayName?.trim() || user.email || '', email: user.email ?? '' })

type Stored = { finding: Finding; mentioned: UserRecord[] }

/**
 * A comment by `reader` on one finding, in the transaction `transact` runs; the people it mentions
 * who may read it are told once it is stored (not when `transact` answers an earlier try's comment).
 */
export async function postFindingComment(
  db: Firestore,
  reader: ReportCaller,
  asked: { findingId: string; body: string; visibility: CommentVisibility; mentions: readonly string[] },
  transact: Transact,
): Promise<{ commentId: string }> {
  const company = reader.company.slug
  if (asked.visibility === 'internal' && !seesInternalComments(reader.access))
    throw new HttpsError('permission-denied', callerMessages.denied)

  const addresses = mentionedAddresses(asked.body).slice(0, COMMENT_MENTIONS_MAX)
  const identifiers = [...addresses.map((email) => ({ email })), ...asked.mentions.map((uid) => ({ uid }))]
  const found = identifiers.length === 0 ? [] : (await adminAuth().getUsers(identifiers)).users
  const picked = new Set(asked.mentions)
  const accounts = [...new Map(found.map((u) => [u.uid, u])).values()]
    .filter((u) => u.uid !== reader.uid)
    // A picked person whose mention was deleted from the text before posting is not told.
    .filter(
      (u) => !picked.has(u.uid) || addresses.includes(u.email?.toLowerCase() ?? '') || (!!u.email && mentionStands(asked.body, nameOf(u))),
    )
    .slice(0, COMMENT_MENTIONS_MAX)
  const access = accounts.length === 0 ? [] : await db.getAll(...accounts.map((u) => db.doc(userAccessPath(u.uid))))
  const analystsOnly = asked.visibility === 'internal'

  const commentRef = db.collection(findingCommentsPath(company, asked.findingId)).doc()
  // Set by the transaction that stores the comment: a try answered from its receipt tells nobody again.
  let stored: Stored | null = null
  const answer = await transact(async (tx) => {
    const found = await readFinding(db, tx, company, asked.findingId)
    if (!found) throw new HttpsError('not-found', reportMessages.noFinding)
    assertSeesResults(reader, found.service)
    // The people who may read this comment, as notifyCompany tells them: decided before it is stored.
    const notice = { company, service: found.service, type: 'mention', onlyUids: [], analystsOnly } as const
    const mentioned = accounts.filter((u, i) => access[i]?.exists && readsNotice(u.uid, access[i].data(), notice, reader.company))
    tx.create(commentRef, {
      authorUid: reader.uid,
      authorName: reader.actor.name,
      authorRole: reader.role,
      body: asked.body,
      visibility: asked.visibility,
      mentions: mentioned.flatMap((u) => (u.email ? [u.email.toLowerCase()] : [])),
      createdAt: FieldValue.serverTimestamp(),
    })
    tx.update(db.doc(findingPath(company, asked.findingId)), { commentCount: FieldValue.increment(1) })
    stored = { finding: found, mentioned }
    return { commentId: commentRef.id }
  })

  const told = stored as Stored | null
  if (told && told.mentioned.length > 0) {
    const { finding, mentioned } = told
    try {
      await notifyCompany(db, {
        company,
        service: finding.service,
        type: 'mention',
        title: `${reader.actor.name} mentioned you on "${finding.title}"`,
        body: asked.body.length > 500 ? `${asked.body.slice(0, 500)}…` : asked.body,
        link: findingLink(finding.service, finding.id),
        onlyUids: mentioned.map((u) => u.uid),
        analystsOnly,
      })
    } catch (error) {
      logger.error('addFindingComment: notifying failed', { error: error instanceof Error ? error.message : String(error) })
    }
  }
  return answer
}

export const addFindingComment = defineCallable('addFindingComment', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  return postFindingComment(db, reader, request, (work) => db.runTransaction(work))
})
