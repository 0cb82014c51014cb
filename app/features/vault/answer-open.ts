// The client's side of a request link: who asks and what, then the answer sealed in this browser
// to the public key in the link. Loaded with `import()` (the call brings the Firebase SDK).
import { call } from '~/core/call'
import { filesTokenOf, parseRequestFragment, sealAnswer, submitTokenOf } from '#domain/vault-request-crypto.ts'
import { fileEntries, REQUEST_FILES_PATH, uploadFiles } from './vault-files-client'
import type { RequestFacts, SubmitVaultRequestResponse, VaultRequestInfo } from '#domain/vault-requests.ts'

export async function lookAtRequest(id: string, fragment: string): Promise<VaultRequestInfo> {
  const { secret } = parseRequestFragment(fragment)
  return call('vaultRequestInfo', { id, submitToken: await submitTokenOf(id, secret) })
}

/**
 * Seals the answer to the request's public key. Files go first, each sealed in chunks under its
 * own key; their keys and names travel only inside the sealed answer, with the token the analyst
 * fetches them with.
 */
export async function answerRequest(
  id: string,
  fragment: string,
  info: RequestFacts,
  text: string,
  files: readonly File[] = [],
  progress: (done: number) => void = () => {},
): Promise<SubmitVaultRequestResponse> {
  const { publicKey, secret } = parseRequestFragment(fragment)
  const entries = fileEntries(files)
  const filesToken = files.length > 0 ? await filesTokenOf(id, secret) : undefined
  if (filesToken) await uploadFiles(id, filesToken, files, entries, progress, REQUEST_FILES_PATH)
  const answer = await sealAnswer(
    publicKey,
    { id, company: info.company, expiresAt: info.expiresAt },
    { text, files: entries, ...(filesToken ? { filesToken } : {}) },
  )
  return call('submitVaultRequest', { id, submitToken: await submitTokenOf(id, secret), answer })
}
