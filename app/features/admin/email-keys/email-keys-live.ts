// The email keys, newest first a page at a time, live, for platform admins (the only readers the
// rules allow): keys stay after they expire or are revoked, so the list grows with use. Loaded
// with `import()` (Firestore SDK).
import { orderBy } from 'firebase/firestore'
import { EMAIL_KEYS_COLLECTION, emailKeyRowFromDocument, type EmailKeyRow } from '#domain/email-keys.ts'
import type { Watch } from '~/core/live-data'
import { watchPages, type Paged } from '~/core/watch-query'

/** Keys a page of the list holds. */
export const EMAIL_KEYS_PAGE = 100

export const watchEmailKeys: Watch<Paged<EmailKeyRow>> = watchPages(
  EMAIL_KEYS_COLLECTION,
  emailKeyRowFromDocument,
  EMAIL_KEYS_PAGE,
  orderBy('createdAt', 'desc'),
)
