// listMentionCandidates: the people a comment on a finding may mention, for the comment box's
// @-autocomplete: a handful whose address starts with what was typed, among the company's people
// who may read the finding (and, for a comment only analysts read, its analysts), the caller left
// out. Asked as the comment box types: it never reads the whole company, a page of addresses at most
// a few times, and tells no more than a mention would (the same readsNotice rule decides both).
import { FieldPath, type Query } from 'firebase-admin/firestore'
import { HttpsError } from 'firebase-functions/v2/https'
import { seesInternalComments } from '#domain/access.ts'
import { findingFromDocument, findingPath } from '#domain/findings.ts'
import { MENTION_CANDIDATES_MAX } from '#domain/reports-calls.ts'
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { adminAuth, adminDb } from '../admin.ts'
import { callerMessages, defineCallable } from '../define-callable.ts'
import { readsNotice } from './notify.ts'
import { assertSeesResults, reportCaller, reportMessages } from './report-caller.ts'

/** Addresses read per page, and pages at most: people who may not read the finding are passed over. */
const PAGE = 40
const PAGES = 3
const PREFIX_END = '\uf8ff'

export const listMentionCandidates = defineCallable('listMentionCandidates', {}, async (caller, request) => {
  const db = adminDb()
  const reader = await reportCaller(db, caller, request.company)
  const analystsOnly = request.visibility === 'internal'
  if (analystsOnly && !seesInternalComments(reader.access)) throw new HttpsError('permission-denied', callerMessages.denied)
  const snapshot = await db.doc(findingPath(request.company, request.findingId)).get()
  const finding = snapshot.exists ? findingFromDocument(snapshot.id, snapshot.data()) : null
  if (!finding) throw new HttpsError('not-found', reportMessages.noFinding)
  assertSeesResults(reader, finding.service)

  const notice = { company: request.company, service: finding.service, type: 'mention', onlyUids: [], analystsOnly } as const
  const members = db.collection(USERS_ACCESS_COLLECTION).where('companies', 'array-contains', request.company)
  const starting = request.prefix
    ? members.where('email', '>=', request.prefix).where('email', '<', `${request.prefix}${PREFIX_END}`)
    : members
  const ordered: Query = starting.orderBy('email').orderBy(FieldPath.documentId())
  const uids: string[] = []
  let cursor = null as [string, string] | null
  for (let page = 0; page < PAGES && uids.length < MENTION_CANDIDATES_MAX; page++) {
    const { docs } = await (cursor ? ordered.startAfter(...cursor) : ordered).limit(PAGE).get()
    for (const doc of docs) {
      if (doc.id !== caller.uid && readsNotice(doc.id, doc.data(), notice, reader.company)) uids.push(doc.id)
    }
    const last = docs.at(-1)
    if (docs.length < PAGE || !last) break
    cursor = [String(last.get('email')), last.id]
  }
  const chosen = uids.slice(0, MENTION_CANDIDATES_MAX)
  if (chosen.length === 0) return { people: [] }
  const { users } = await adminAuth().getUsers(chosen.map((uid) => ({ uid })))
  const byUid = new Map(users.map((user) => [user.uid, user]))
  return {
    people: chosen.flatMap((uid) => {
      const user = byUid.get(uid)
      if (!user?.email || user.disabled) return []
      return [{ uid, name: user.displayName?.trim() || user.email, email: user.email.toLowerCase() }]
    }),
  }
})
