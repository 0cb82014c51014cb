// Follows whether Firestore answers, through the signed-in person's own access document (always
// readable to them): its metadata says whether a snapshot came from the server or the cache alone.
// The SDK shares one server watch per document, so this costs no extra reads. Loaded with `import()`.
import { doc, onSnapshot } from 'firebase/firestore'
import { userAccessPath } from '#domain/users-access.ts'
import { reportDatabaseReach } from './connection'
import { firestore } from './firebase'

export function watchDatabaseReach(uid: string): () => void {
  const stop = onSnapshot(
    doc(firestore(), userAccessPath(uid)),
    { includeMetadataChanges: true },
    (snapshot) => reportDatabaseReach(!snapshot.metadata.fromCache),
    // A refused read is the session's business (session-live.ts), not the connection's.
    () => reportDatabaseReach(true),
  )
  return () => {
    stop()
    reportDatabaseReach(true)
  }
}
