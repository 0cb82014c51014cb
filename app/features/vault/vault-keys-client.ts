// The analyst's own vault key (decision 0022): read live and once from vault_keys/{uid}, which only
// they may read, and set up in this browser, where the private key is made and wrapped under the
// vault passphrase before it is published. Loaded with `import()`.
import { doc, getDoc, onSnapshot } from 'firebase/firestore'
import { call } from '~/core/call'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { unknownYet } from '~/core/cache-snapshots'
import { withinDeadline } from '~/core/read-deadline'
import { vaultKeyFromDocument, vaultKeyPath, type StoredVaultKey } from '#domain/vault-keys.ts'
import { createMemberKey, keyFingerprint } from '#domain/vault-team-crypto.ts'

export interface OwnVaultKey {
  key: StoredVaultKey
  fingerprint: string
}

export const watchVaultKey =
  (uid: string): Watch<OwnVaultKey | null> =>
  (next, fail) =>
    onSnapshot(
      doc(firestore(), vaultKeyPath(uid)),
      // The server's confirmation of what the cache alone said changes only the metadata.
      { includeMetadataChanges: true },
      (snapshot) => {
        // No key in the cache while the database is out of reach is not "no key yet": the page
        // would offer to set up a new one.
        if (unknownYet(snapshot, !snapshot.exists())) return
        const key = vaultKeyFromDocument(snapshot.data())
        if (!key) return next(null)
        keyFingerprint(key.publicKey).then((fingerprint) => next({ key, fingerprint }), fail)
      },
      fail,
    )

export async function readVaultKey(uid: string): Promise<StoredVaultKey | null> {
  return vaultKeyFromDocument((await withinDeadline(getDoc(doc(firestore(), vaultKeyPath(uid))))).data())
}

/** Makes a vault key pair in this browser and publishes it; the private key leaves only wrapped. */
export async function setUpVaultKey(uid: string, vaultPassphrase: string): Promise<void> {
  const made = await createMemberKey(uid, vaultPassphrase)
  await call('setVaultKey', made)
}
