// The signed-in user's own activity, live. Loaded with `import()` (Firestore SDK).
import { orderBy, where } from 'firebase/firestore'
import { eventFromDocument, EVENTS_COLLECTION, type ActivityEvent } from '#domain/events.ts'
import type { Watch } from '~/core/live-data'
import { capped, watchQuery, type Capped } from '~/core/watch-query'

/** Events listed, newest first. */
export const RECENT_ACTIVITY = 20

/** The person's most recent events, newest first, and whether older ones exist. */
export const watchActivity = (uid: string): Watch<Capped<ActivityEvent>> =>
  capped(RECENT_ACTIVITY, (cap) =>
    watchQuery(EVENTS_COLLECTION, eventFromDocument, where('createdByUid', '==', uid), orderBy('createdAt', 'desc'), cap),
  )
