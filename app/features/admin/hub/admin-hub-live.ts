// What /admin shows: how many people there are (everyone, or the selected company's) and how
// many email keys expire soon, counted on the server (no document is read), and the latest audit
// events the rules let this person read, live. Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, Timestamp, where } from 'firebase/firestore'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument, type AuditEvent } from '#domain/audit-events.ts'
import { EMAIL_KEY_EXPIRING_MS, EMAIL_KEYS_COLLECTION } from '#domain/email-keys.ts'
import { USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { unknownYet } from '~/core/cache-snapshots'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { countOf, type Capped } from '~/core/watch-query'

/** Audit events the hub lists, newest first. */
export const LATEST_EVENTS = 15

/** A figure counted once on the server when the page opens. */
const countedOnce =
  (count: () => Promise<number>): Watch<number> =>
  (next, fail) => {
    let stopped = false
    count().then(
      (n) => !stopped && next(n),
      (error: unknown) => !stopped && fail(error instanceof Error ? error : new Error(String(error))),
    )
    return () => {
      stopped = true
    }
  }

/** Everyone with access (company null, platform admins) or the people of one company. */
export const watchPeopleCount = (company: string | null): Watch<number> =>
  countedOnce(() => {
    const people = collection(firestore(), USERS_ACCESS_COLLECTION)
    return countOf(company === null ? people : query(people, where('companies', 'array-contains', company)))
  })

/** Keys that expire within the warning window and are not revoked (emailKeyState's "expiring"). */
export const watchExpiringKeys: Watch<number> = countedOnce(() => {
  const now = Date.now()
  return countOf(
    query(
      collection(firestore(), EMAIL_KEYS_COLLECTION),
      where('revokedAt', '==', null),
      where('expiresAt', '>', Timestamp.fromMillis(now)),
      where('expiresAt', '<=', Timestamp.fromMillis(now + EMAIL_KEY_EXPIRING_MS)),
    ),
  )
})

/** Which events the feed asks for: every one (platform admins), the analysts' (companies and fleet), or one company's. */
export type AuditFeed = { kind: 'all' } | { kind: 'analysts' } | { kind: 'company'; slug: string }

/** The latest events of the feed, newest first (and whether older ones exist). */
export const watchAuditEvents =
  (feed: AuditFeed): Watch<Capped<AuditEvent>> =>
  (next, fail) => {
    const events = collection(firestore(), AUDIT_EVENTS_COLLECTION)
    const latest = [orderBy('createdAt', 'desc'), limit(LATEST_EVENTS + 1)] as const
    const scoped =
      feed.kind === 'all'
        ? query(events, ...latest)
        : feed.kind === 'analysts'
          ? query(events, where('audience', '==', 'analysts'), ...latest)
          : query(events, where('companyId', '==', feed.slug), ...latest)
    return onSnapshot(
      scoped,
      // The server's confirmation of an empty list the cache alone gave changes only the metadata.
      { includeMetadataChanges: true },
      (snapshot) => {
        // Nothing cached while the database is out of reach is not "no changes recorded yet".
        if (unknownYet(snapshot, snapshot.empty)) return
        next({
          items: snapshot.docs
            .slice(0, LATEST_EVENTS)
            .flatMap((d) => auditEventFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? []),
          more: snapshot.size > LATEST_EVENTS,
        })
      },
      fail,
    )
  }
