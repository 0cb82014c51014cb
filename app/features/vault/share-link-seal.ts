// Seals a secret under a new share link in this browser and stores the ciphertext: what leaves
// the browser is ciphertext, token hashes and the link's terms. Loaded with `import()` (the call
// brings the Firebase SDK).
import { call } from '~/core/call'
import { createShareLink, newVaultId, type LinkPolicy } from '#domain/vault-crypto.ts'
import { vaultSharePath } from '#domain/vault.ts'

export interface ShareInput {
  text: string
  label: string
  company: string
  expiresInMs: number
  maxViews: number
  passphrase: string
  recipient: string
}

/** The new link's address, its key in the fragment. */
export async function shareSecret(input: ShareInput, origin: string): Promise<{ id: string; url: string }> {
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
  const link = await createShareLink(policy, { text: input.text, files: [] }, passphrase)
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
  })
  return { id: policy.id, url: `${origin}${vaultSharePath(policy.id)}#${link.linkKey}` }
}

export const revokeLink = (id: string) => call('revokeVaultLink', { id })
