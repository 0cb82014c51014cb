// The signed-in person's notifications, live, and marking them read. Loaded with `import()`
// (Firestore SDK).
import { collection, doc, limit, onSnapshot, orderBy, query, where, writeBatch } from 'firebase/firestore'
import { notificationFromDocument, NOTIFICATIONS_COLLECTION, notificationPath, type AppNotification } from '#domain/notifications.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

/** The bell lists this many, newest first; the unread count is among them. */
export const NOTIFICATIONS_SHOWN = 50

export const watchNotifications =
  (uid: string): Watch<AppNotification[]> =>
  (next, fail) =>
    onSnapshot(
      query(
        collection(firestore(), NOTIFICATIONS_COLLECTION),
        where('uid', '==', uid),
        orderBy('createdAt', 'desc'),
        limit(NOTIFICATIONS_SHOWN),
      ),
      (snapshot) => next(snapshot.docs.flatMap((d) => notificationFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )

/** Marks these notifications read: the one change the rules let their owner make. */
export async function markRead(ids: readonly string[]): Promise<void> {
  const db = firestore()
  // A batch holds at most 500 writes; the bell never shows more than 50.
  const batch = writeBatch(db)
  for (const id of ids) batch.update(doc(db, notificationPath(id)), { read: true })
  await batch.commit()
}
