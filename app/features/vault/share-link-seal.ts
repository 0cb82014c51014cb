// Seals a secret under a new share link in this browser and stores the ciphertext: what leaves
// the browser is ciphertext, token hashes and the link's terms. Loaded with `import()` (the call
// brings the Firebase SDK).
import { call } from '~/core/call'
import { createShareLink, newVaultId, type LinkPolicy } from '#domain/vault-crypto.ts'
import { vaultSharePath } from '#domain/vault.ts'
import { deleteFiles, fileEntries, uploadFiles } from './vault-files-client'

export interface ShareInput {
  text: string
  label: string
  company: string
  expiresInMs: number
  maxViews: number
  passphrase: string
  recipient: string
  files: File[]
}

/** The new link's address, its key in the fragment. */
export async function shareSecret(
  input: ShareInput,
  origin: string,
  progress?: (done: number) => void,
): Promise<{ id: string; url: string }> {
  const passphrase = input.passphrase === '' ? null : input.passphrase
  const recipient = input.recipient.trim().toLowerCase() || null
  const policy: LinkPolicy = {
    id: newVaultId(),
    company: input.company,
    expiresAt: Date.now() + input.expiresInMs,
    maxViews: input.maxViews,
    recipient,
    passphrase: passphrase !== null,
  }
  const entries = fileEntries(input.files)
  const link = await createShareLink(policy, { text: input.text, files: entries }, passphrase)
  // The files go first: the link exists only once everything it promises is stored.
  if (input.files.length > 0) await uploadFiles(policy.id, link.fileToken, input.files, entries, progress)
  await call('createVaultLink', {
    id: policy.id,
    company: policy.company,
    expiresAt: policy.expiresAt,
    maxViews: policy.maxViews,
    recipient,
    label: input.label,
    kdf: link.kdf,
    findTokenHash: link.findTokenHash,
    openTokenHash: link.openTokenHash,
    ciphertext: link.sealed.ciphertext,
    iv: link.sealed.iv,
    files: entries.length,
  })
  return { id: policy.id, url: `${origin}${vaultSharePath(policy.id)}#${link.linkKey}` }
}

/** Revokes a link; its files, if it has any, go from the store at once. */
export async function revokeLink(id: string, files: number): Promise<void> {
  await call('revokeVaultLink', { id })
  if (files > 0) await deleteFiles(id, null)
}
