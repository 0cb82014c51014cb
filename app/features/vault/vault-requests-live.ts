// The analyst's own request links, and the shares of those colleagues shared with them in a
// company (no wrapped key, no answer), live: an answer shows the moment it is stored. Loaded with `import()`.
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import {
  VAULT_REQUEST_SHARES_COLLECTION,
  VAULT_REQUESTS_COLLECTION,
  vaultRequestFromDocument,
  vaultRequestShareFromDocument,
  type VaultRequest,
  type VaultRequestShare,
} from '#domain/vault-requests.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

const RECENT = 50

export const watchVaultRequests =
  (uid: string): Watch<VaultRequest[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), VAULT_REQUESTS_COLLECTION), where('createdBy', '==', uid), orderBy('createdAt', 'desc'), limit(RECENT)),
      (snapshot) => next(snapshot.docs.flatMap((d) => vaultRequestFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )

/** Requests of `company` shared with the analyst as one of its engagement (the rules ask for both terms). */
export const watchTeamVaultRequests =
  (uid: string, company: string): Watch<VaultRequestShare[]> =>
  (next, fail) =>
    onSnapshot(
      query(
        collection(firestore(), VAULT_REQUEST_SHARES_COLLECTION),
        where('teamUids', 'array-contains', uid),
        where('company', '==', company),
        orderBy('createdAt', 'desc'),
        limit(RECENT),
      ),
      (snapshot) => next(snapshot.docs.flatMap((d) => vaultRequestShareFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? [])),
      fail,
    )
