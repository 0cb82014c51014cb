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

/** The latest events: all of them (company null, platform admins) or one company's. */
export const watchAuditEvents =
  (company: string | null): Watch<AuditEvent[]> =>
  (next, fail) => {
    const events = collection(firestore(), AUDIT_EVENTS_COLLECTION)
    const scoped =
      company === null
        ? query(events, orderBy('createdAt', 'desc'), limit(LATEST))
        : query(events, where('companyId', '==', company), orderBy('createdAt', 'desc'), limit(LATEST))
    return onSnapshot(
      scoped,
      (snapshot) => next(snapshot.docs.flatMap((d) => auditEventFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )
  }
