// The client's side of a request link: who asks and what, then the answer sealed in this browser
// to the public key in the link. Loaded with `import()` (the call brings the Firebase SDK).
import { call } from '~/core/call'
import { parseRequestFragment, sealAnswer, submitTokenOf } from '#domain/vault-request-crypto.ts'
import type { RequestFacts, SubmitVaultRequestResponse, VaultRequestInfo } from '#domain/vault-requests.ts'

export async function lookAtRequest(id: string, fragment: string): Promise<VaultRequestInfo> {
  const { secret } = parseRequestFragment(fragment)
  return call('vaultRequestInfo', { id, submitToken: await submitTokenOf(id, secret) })
}

export async function answerRequest(id: string, fragment: string, info: RequestFacts, text: string): Promise<SubmitVaultRequestResponse> {
  const { publicKey, secret } = parseRequestFragment(fragment)
  const answer = await sealAnswer(publicKey, { id, company: info.company, expiresAt: info.expiresAt }, { text, files: [] })
  return call('submitVaultRequest', { id, submitToken: await submitTokenOf(id, secret), answer })
}
