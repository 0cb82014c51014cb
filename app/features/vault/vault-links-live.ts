// The analyst's own share links, newest first a page at a time, live. Loaded with `import()`
// (Firestore SDK).
import { orderBy, where } from 'firebase/firestore'
import { VAULT_LINKS_COLLECTION, vaultLinkFromDocument, type VaultLink } from '#domain/vault.ts'
import type { Watch } from '~/core/live-data'
import { watchPages, type Paged } from '~/core/watch-query'

/** Links a page of the list holds. */
export const VAULT_LINKS_PAGE = 50

/** The analyst's links, newest first: the rules let them list only their own. */
export const watchVaultLinks = (uid: string): Watch<Paged<VaultLink>> =>
  watchPages(VAULT_LINKS_COLLECTION, vaultLinkFromDocument, VAULT_LINKS_PAGE, where('createdBy', '==', uid), orderBy('createdAt', 'desc'))
