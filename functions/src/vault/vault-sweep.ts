// The vault's sweep: ciphertexts past their expiry go at once, link records past their keeping
// time go with them. Firestore's TTL policies do the same within a day; this makes it prompt.
// Records go with their files gates and shares: a gate that goes tells the file store (the Worker)
// to delete the files behind it (review-vault-files.ts, decision 0035).
import type { Firestore } from 'firebase-admin/firestore'
import { Timestamp } from 'firebase-admin/firestore'
import { VAULT_LINKS_COLLECTION, VAULT_SEALED_COLLECTION, vaultLinkGatePath } from '#domain/vault.ts'
import { VAULT_REQUESTS_COLLECTION, vaultRequestGatePath, vaultRequestSharePath } from '#domain/vault-requests.ts'

export async function sweepVault(db: Firestore, now: number): Promise<{ ciphertexts: number; links: number; requests: number }> {
  const cutoff = Timestamp.fromMillis(now)
  const sealed = await db.collectionGroup(VAULT_SEALED_COLLECTION).where('expiresAt', '<=', cutoff).get()
  const records = await db.collection(VAULT_LINKS_COLLECTION).where('purgeAt', '<=', cutoff).get()
  const requests = await db.collection(VAULT_REQUESTS_COLLECTION).where('purgeAt', '<=', cutoff).get()
  const writer = db.bulkWriter()
  for (const doc of requests.docs) {
    void writer.delete(doc.ref)
    void writer.delete(db.doc(vaultRequestGatePath(doc.id)))
    void writer.delete(db.doc(vaultRequestSharePath(doc.id)))
  }
  for (const doc of sealed.docs) void writer.delete(doc.ref)
  for (const doc of records.docs) {
    void writer.delete(doc.ref)
    void writer.delete(db.doc(vaultLinkGatePath(doc.id)))
  }
  await writer.close()
  // Links keep their sealed part, shared requests their colleagues' sealed keys, below them.
  for (const doc of [...records.docs, ...requests.docs]) await db.recursiveDelete(doc.ref)
  return { ciphertexts: sealed.size, links: records.size, requests: requests.size }
}
