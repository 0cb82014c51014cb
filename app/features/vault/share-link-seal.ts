// Seals a secret under a new share link in this browser and stores the ciphertext: what leaves
// the browser is ciphertext, token hashes and the link's terms. The sealed link is kept until it is
// known to be stored, so every try sends the same link under the same request id and the key shown
// is the stored link's. Loaded with `import()` (the call brings the Firebase SDK).
import type { CallableRequest } from '#domain/callables.ts'
import { call } from '~/core/call'
import { newRequestId } from '~/core/call-until-known'
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

/** A sealed link whose files are stored: what createVaultLink is sent, on every try, and its address. */
export interface SealedLink {
  request: CallableRequest<'createVaultLink'>
  id: string
  /** The link's address, its key in the fragment: shown once the link is stored. */
  url: string
}

/** Seals the secret under a new link in this browser and stores its files; the link itself is not stored yet. */
export async function sealSecret(input: ShareInput, origin: string, progress?: (done: number) => void): Promise<SealedLink> {
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
  return {
    request: {
      requestId: newRequestId(),
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
    },
    id: policy.id,
    url: `${origin}${vaultSharePath(policy.id)}#${link.linkKey}`,
  }
}

/** Stores the sealed link; sent again with the same request id, it answers the link the first try stored. */
export async function storeLink(sealed: SealedLink): Promise<void> {
  await call('createVaultLink', sealed.request)
}

/** Revokes a link; its files, if it has any, go from the store at once. */
export async function revokeLink(id: string, files: number): Promise<void> {
  await call('revokeVaultLink', { id })
  if (files > 0) await deleteFiles(id, null)
}
