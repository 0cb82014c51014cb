// The signed-in person's notifications, live, and marking them read. Loaded with `import()`
// (Firestore SDK).
import { collection, doc, getDocs, limit, onSnapshot, orderBy, query, where, writeBatch } from 'firebase/firestore'
import { notificationFromDocument, NOTIFICATIONS_COLLECTION, notificationPath, type AppNotification } from '#domain/notifications.ts'
import { unknownYet } from '~/core/cache-snapshots'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { countOf, type Capped } from '~/core/watch-query'

/** The bell lists this many, newest first. */
export const NOTIFICATIONS_SHOWN = 50

/** The latest notifications, whether older ones exist, and how many of them all are unread. */
export interface NotificationsView extends Capped<AppNotification> {
  unread: number
}

/** A batch holds at most 500 writes. */
const MARKED_AT_ONCE = 500

/**
 * The latest notifications, live. While they are all there is, the unread are counted among them;
 * beyond, the server counts them (an aggregate) whenever the latest change.
 */
export const watchNotifications =
  (uid: string): Watch<NotificationsView> =>
  (next, fail) => {
    const db = firestore()
    let stopped = false
    let round = 0
    let answered = false
    const stop = onSnapshot(
      query(
        collection(db, NOTIFICATIONS_COLLECTION),
        where('uid', '==', uid),
        orderBy('createdAt', 'desc'),
        limit(NOTIFICATIONS_SHOWN + 1),
      ),
      // The server's confirmation of an empty list the cache alone gave changes only the metadata.
      { includeMetadataChanges: true },
      (snapshot) => {
        // Nothing cached while the database is out of reach is not "nothing yet"; after the first
        // answer, a change of metadata alone changes nothing shown (and counts nothing again).
        if (unknownYet(snapshot, snapshot.empty)) return
        if (answered && snapshot.docChanges().length === 0) return
        answered = true
        const mine = ++round
        const items = snapshot.docs
          .slice(0, NOTIFICATIONS_SHOWN)
          .flatMap((d) => notificationFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])
        const more = snapshot.size > NOTIFICATIONS_SHOWN
        const shownUnread = items.filter((n) => !n.read).length
        if (!more) return next({ items, more, unread: shownUnread })
        countOf(query(collection(db, NOTIFICATIONS_COLLECTION), where('uid', '==', uid), where('read', '==', false))).then(
          (unread) => !stopped && mine === round && next({ items, more, unread: Math.max(unread, shownUnread) }),
          (error: Error) => !stopped && fail(error),
        )
      },
      fail,
    )
    return () => {
      stopped = true
      stop()
    }
  }

/** Marks these notifications read: the one change the rules let their owner make. */
export async function markRead(ids: readonly string[]): Promise<void> {
  const db = firestore()
  for (let i = 0; i < ids.length; i += MARKED_AT_ONCE) {
    const batch = writeBatch(db)
    for (const id of ids.slice(i, i + MARKED_AT_ONCE)) batch.update(doc(db, notificationPath(id)), { read: true })
    await batch.commit()
  }
}

/** Marks every unread notification of the person read, the listed ones and any older ones alike. */
export async function markAllRead(uid: string): Promise<void> {
  const db = firestore()
  for (;;) {
    const unread = await getDocs(
      query(collection(db, NOTIFICATIONS_COLLECTION), where('uid', '==', uid), where('read', '==', false), limit(MARKED_AT_ONCE)),
    )
    if (unread.empty) return
    await markRead(unread.docs.map((d) => d.id))
    if (unread.size < MARKED_AT_ONCE) return
  }
}
