// The analyst's own request links, and the shares of those colleagues shared with them in a
// company (no wrapped key, no answer), newest first a page at a time, live: an answer shows the
// moment it is stored. Loaded with `import()`.
import { orderBy, where } from 'firebase/firestore'
import {
  VAULT_REQUEST_SHARES_COLLECTION,
  VAULT_REQUESTS_COLLECTION,
  vaultRequestFromDocument,
  vaultRequestShareFromDocument,
  type VaultRequest,
  type VaultRequestShare,
} from '#domain/vault-requests.ts'
import type { Watch } from '~/core/live-data'
import { watchPages, type Paged } from '~/core/watch-query'

/** Requests a page of a list holds. */
export const VAULT_REQUESTS_PAGE = 50

export const watchVaultRequests = (uid: string): Watch<Paged<VaultRequest>> =>
  watchPages(
    VAULT_REQUESTS_COLLECTION,
    vaultRequestFromDocument,
    VAULT_REQUESTS_PAGE,
    where('createdBy', '==', uid),
    orderBy('createdAt', 'desc'),
  )

/** Requests of `company` shared with the analyst as one of its engagement (the rules ask for both terms). */
export const watchTeamVaultRequests = (uid: string, company: string): Watch<Paged<VaultRequestShare>> =>
  watchPages(
    VAULT_REQUEST_SHARES_COLLECTION,
    vaultRequestShareFromDocument,
    VAULT_REQUESTS_PAGE,
    where('teamUids', 'array-contains', uid),
    where('company', '==', company),
    orderBy('createdAt', 'desc'),
  )
