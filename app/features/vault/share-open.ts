// The recipient's side of a share link: a look that spends nothing, then the claim and the
// decryption, all in this browser. Loaded with `import()` (the call brings the Firebase SDK).
import { call } from '~/core/call'
import { deriveLinkKeys, findTokenOf, openPayload, type VaultPayload } from '#domain/vault-crypto.ts'
import type { ClaimRefusal, VaultLinkInfo } from '#domain/vault.ts'
import { deleteFiles, downloadFiles, type OpenedFile } from './vault-files-client'

export const lookAtLink = async (id: string, linkKey: string): Promise<VaultLinkInfo> =>
  call('vaultLinkInfo', { id, findToken: await findTokenOf(id, linkKey) })

export type Revealed =
  | { outcome: 'opened'; payload: VaultPayload; files: OpenedFile[]; viewsLeft: number }
  | { outcome: 'refused'; reason: ClaimRefusal; triesLeft: number | null }

/** Spends one view: only ever after the recipient clicked Reveal. */
export async function revealLink(
  id: string,
  linkKey: string,
  info: Extract<VaultLinkInfo, { status: 'ready' }>,
  passphrase: string,
): Promise<Revealed> {
  const keys = await deriveLinkKeys(id, linkKey, info.kdf ? { text: passphrase, kdf: info.kdf } : undefined)
  const answer = await call('claimVaultLink', { id, findToken: keys.findToken, openToken: keys.openToken })
  if (answer.outcome === 'refused') return answer
  const payload = await openPayload(keys.key, answer, answer.policy)
  // Files come down now: after the last view their chunks are deleted from the store.
  const files = payload.files.length > 0 ? await downloadFiles(id, keys.fileToken, payload.files) : []
  if (payload.files.length > 0 && answer.viewsLeft === 0) await deleteFiles(id, keys.fileToken)
  return { outcome: 'opened', payload, files, viewsLeft: answer.viewsLeft }
}
