// Follows whether Firestore answers: through the signed-in person's own access document (always
// readable to them), whose metadata says whether a snapshot came from the server or the cache alone
// (the SDK shares one server watch per document, so this costs no extra reads), and through a probe
// of the database's host. Loaded with `import()`.
import { disableNetwork, doc, enableNetwork, onSnapshot } from 'firebase/firestore'
import { userAccessPath } from '#domain/users-access.ts'
import { clientBoot } from './client-boot'
import { reportDatabaseReach } from './connection'
import { firestore } from './firebase'
import { watchHostReach } from './host-probe'
import { firestoreOrigin } from '~/server/firestore-rest'

export function watchDatabaseReach(uid: string): () => void {
  const stopSnapshots = onSnapshot(
    doc(firestore(), userAccessPath(uid)),
    { includeMetadataChanges: true },
    (snapshot) => reportDatabaseReach('snapshots', !snapshot.metadata.fromCache),
    // A refused read is the session's business (session-live.ts), not the connection's.
    () => reportDatabaseReach('snapshots', true),
  )
  const stopProbe = watchHostReach({
    origin: firestoreOrigin(clientBoot.current().firebase),
    shouldProbe: () => navigator.onLine && document.visibilityState === 'visible',
    onChange: (reached) => {
      reportDatabaseReach('probe', reached)
      // Back after an outage: the SDK's streams may be waiting out a long backoff; restart them now.
      // Writes made meanwhile stay queued and go once the network is enabled again.
      if (reached) void disableNetwork(firestore()).then(() => enableNetwork(firestore()))
    },
  })
  return () => {
    stopSnapshots()
    stopProbe()
    reportDatabaseReach('snapshots', true)
    reportDatabaseReach('probe', true)
  }
}
