// The analyst's side of request links: a fresh key pair whose private key leaves this browser
// only wrapped under the vault passphrase, and the opening of an answer. Loaded with `import()`.
import { call } from '~/core/call'
import { newVaultId, type VaultPayload } from '#domain/vault-crypto.ts'
import { createRequestLink, openAnswer } from '#domain/vault-request-crypto.ts'
import { vaultRequestLinkPath, type VaultRequest } from '#domain/vault-requests.ts'
import { downloadFiles, REQUEST_FILES_PATH, type OpenedFile } from './vault-files-client'

export interface RequestInput {
  label: string
  company: string
  expiresInMs: number
  vaultPassphrase: string
}

export async function askForSecret(input: RequestInput, origin: string): Promise<{ id: string; url: string }> {
  const id = newVaultId()
  const link = await createRequestLink(id, input.vaultPassphrase)
  await call('createVaultRequest', {
    id,
    company: input.company,
    expiresAt: Date.now() + input.expiresInMs,
    label: input.label,
    submitTokenHash: link.submitTokenHash,
    filesTokenHash: link.filesTokenHash,
    wrappedKey: link.wrappedKey,
  })
  return { id, url: `${origin}${vaultRequestLinkPath(id)}#${link.fragment}` }
}

export const withdrawRequest = (id: string) => call('revokeVaultRequest', { id })

/** Opens the request's answer in this browser with the vault passphrase, and fetches and opens its files. */
export async function openRequestAnswer(
  request: VaultRequest,
  vaultPassphrase: string,
): Promise<{ payload: VaultPayload; files: OpenedFile[] }> {
  if (!request.answer) throw new Error('No answer yet.')
  const payload = await openAnswer(
    request.wrappedKey,
    vaultPassphrase,
    { id: request.id, company: request.company, expiresAt: request.expiresAt },
    request.answer,
  )
  const files =
    payload.files.length > 0 && payload.filesToken
      ? await downloadFiles(request.id, payload.filesToken, payload.files, REQUEST_FILES_PATH)
      : []
  return { payload, files }
}
