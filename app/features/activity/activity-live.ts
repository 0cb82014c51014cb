// The signed-in user's own activity, live. Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { eventFromDocument, EVENTS_COLLECTION, type ActivityEvent } from '#domain/events.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'

/** Events listed, newest first. */
export const RECENT_ACTIVITY = 20

/** The person's most recent events, newest first, and whether older ones exist. */
export const watchActivity =
  (uid: string): Watch<Capped<ActivityEvent>> =>
  (next, fail) =>
    onSnapshot(
      query(
        collection(firestore(), EVENTS_COLLECTION),
        where('createdByUid', '==', uid),
        orderBy('createdAt', 'desc'),
        limit(RECENT_ACTIVITY + 1),
      ),
      (snapshot) =>
        next({
          items: snapshot.docs.slice(0, RECENT_ACTIVITY).map((d) => eventFromDocument(d.id, d.data())),
          more: snapshot.size > RECENT_ACTIVITY,
        }),
      fail,
    )
