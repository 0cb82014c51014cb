// The analyst's own share links, live. Loaded with `import()` (Firestore SDK).
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { VAULT_LINKS_COLLECTION, vaultLinkFromDocument, type VaultLink } from '#domain/vault.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

const RECENT = 50

/** The analyst's links, newest first: the rules let them list only their own. */
export const watchVaultLinks =
  (uid: string): Watch<VaultLink[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), VAULT_LINKS_COLLECTION), where('createdBy', '==', uid), orderBy('createdAt', 'desc'), limit(RECENT)),
      (snapshot) => next(snapshot.docs.flatMap((d) => vaultLinkFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )
