// Every email key, live, for platform admins (the only readers the rules allow). Loaded with
// `import()` (Firestore SDK).
import { collection, onSnapshot } from 'firebase/firestore'
import { EMAIL_KEYS_COLLECTION, emailKeyRowFromDocument, type EmailKeyRow } from '#domain/email-keys.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

export const watchEmailKeys: Watch<EmailKeyRow[]> = (next, fail) =>
  onSnapshot(
    collection(firestore(), EMAIL_KEYS_COLLECTION),
    (snapshot) => next(snapshot.docs.flatMap((d) => emailKeyRowFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
    fail,
  )
