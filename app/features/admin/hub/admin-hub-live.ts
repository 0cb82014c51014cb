// What /admin follows live: how many people there are (everyone, or the selected company's),
// how many email keys expire soon, and the latest audit events the rules let this person read.
// Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument, type AuditEvent } from '#domain/audit-events.ts'
import { EMAIL_KEYS_COLLECTION, emailKeyFromDocument, emailKeyState } from '#domain/email-keys.ts'
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

const LATEST = 15

/** Everyone with access (company null, platform admins) or the people of one company. */
export const watchPeopleCount =
  (company: string | null): Watch<number> =>
  (next, fail) => {
    const people = collection(firestore(), USERS_ACCESS_COLLECTION)
    return onSnapshot(company === null ? people : query(people, where('companies', 'array-contains', company)), (s) => next(s.size), fail)
  }

export const watchExpiringKeys: Watch<number> = (next, fail) =>
  onSnapshot(
    collection(firestore(), EMAIL_KEYS_COLLECTION),
    (snapshot) => {
      const now = Date.now()
      next(
        snapshot.docs.filter((doc) => {
          const key = emailKeyFromDocument(doc.data())
          return key !== null && emailKeyState(key, now) === 'expiring'
        }).length,
      )
    },
    fail,
  )

/** Which events the feed asks for: every one (platform admins), the analysts' (companies and fleet), or one company's. */
export type AuditFeed = { kind: 'all' } | { kind: 'analysts' } | { kind: 'company'; slug: string }

/** The latest events of the feed, newest first. */
export const watchAuditEvents =
  (feed: AuditFeed): Watch<AuditEvent[]> =>
  (next, fail) => {
    const events = collection(firestore(), AUDIT_EVENTS_COLLECTION)
    const latest = [orderBy('createdAt', 'desc'), limit(LATEST)] as const
    const scoped =
      feed.kind === 'all'
        ? query(events, ...latest)
        : feed.kind === 'analysts'
          ? query(events, where('audience', '==', 'analysts'), ...latest)
          : query(events, where('companyId', '==', feed.slug), ...latest)
    return onSnapshot(
      scoped,
      (snapshot) => next(snapshot.docs.flatMap((d) => auditEventFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )
  }
