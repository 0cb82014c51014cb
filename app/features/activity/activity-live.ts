// The signed-in user's own activity, live. Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { eventFromDocument, EVENTS_COLLECTION, type ActivityEvent } from '#domain/events.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

const RECENT = 20

/** The person's most recent events, newest first. */
export const watchActivity =
  (uid: string): Watch<ActivityEvent[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), EVENTS_COLLECTION), where('createdByUid', '==', uid), orderBy('createdAt', 'desc'), limit(RECENT)),
      (snapshot) => next(snapshot.docs.map((d) => eventFromDocument(d.id, d.data()))),
      fail,
    )
