// The signed-in user's own activity, live. Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, where, type Timestamp } from 'firebase/firestore'
import { firestore } from '~/core/firebase'

export interface ActivityEvent {
  id: string
  type: string
  at: Date | null
}

const RECENT = 20

export function watchActivity(uid: string, onChange: (events: ActivityEvent[]) => void, onError: (error: Error) => void): () => void {
  const recent = query(collection(firestore(), 'events'), where('createdByUid', '==', uid), orderBy('createdAt', 'desc'), limit(RECENT))
  return onSnapshot(
    recent,
    (snapshot) =>
      onChange(
        snapshot.docs.map((d) => {
          const data = d.data() as { type?: unknown; createdAt?: Timestamp | null }
          return { id: d.id, type: typeof data.type === 'string' ? data.type : 'unknown', at: data.createdAt?.toDate() ?? null }
        }),
      ),
    onError,
  )
}
