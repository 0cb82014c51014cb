// The analyst's side of request links: a fresh key pair whose private key leaves this browser
// only wrapped under the vault passphrase (and, for a request shared with the company's
// engagement, sealed to each colleague's vault key), and the opening of an answer by the analyst
// who asked or a colleague. Loaded with `import()`.
import { call } from '~/core/call'
import { newVaultId, VaultCryptoError, type VaultPayload } from '#domain/vault-crypto.ts'
import { createRequestLink, openAnswerWithKey, unwrapRequestKey } from '#domain/vault-request-crypto.ts'
import { vaultRequestLinkPath, type VaultRequest, type VaultRequestShare } from '#domain/vault-requests.ts'
import { openRequestKeyAsMember, unwrapMemberKey } from '#domain/vault-team-crypto.ts'
import { downloadFiles, REQUEST_FILES_PATH, type OpenedFile } from './vault-files-client'
import { readVaultKey } from './vault-keys-client'

export interface RequestInput {
  label: string
  company: string
  expiresInMs: number
  vaultPassphrase: string
  /** The analysts of the company's engagement can open it too. */
  team: boolean
}

export async function askForSecret(input: RequestInput, origin: string): Promise<{ id: string; url: string; sharedWith: string[] | null }> {
  const id = newVaultId()
  // The server names the engagement's analysts and their published keys, and checks them again on create.
  const members = input.team ? (await call('vaultTeamKeys', { company: input.company })).members : []
  const link = await createRequestLink(id, input.vaultPassphrase, members)
  await call('createVaultRequest', {
    id,
    company: input.company,
    expiresAt: Date.now() + input.expiresInMs,
    label: input.label,
    submitTokenHash: link.submitTokenHash,
    filesTokenHash: link.filesTokenHash,
    wrappedKey: link.wrappedKey,
    team: input.team,
    teamKeys: link.teamKeys,
  })
  return { id, url: `${origin}${vaultRequestLinkPath(id)}#${link.fragment}`, sharedWith: input.team ? members.map((m) => m.name) : null }
}

export const withdrawRequest = (id: string) => call('revokeVaultRequest', { id })

/**
 * The request's private key in this browser: the analyst who asked unwraps theirs (on their own
 * request), a colleague, who reads only its share, unwraps their vault key and with it the request
 * key sealed to them. The passphrase is proven here first, so a wrong one asks the server for
 * nothing; openVaultRequest then records the opening and hands out the answer.
 */
async function requestKeyFor(request: VaultRequest | VaultRequestShare, uid: string, vaultPassphrase: string) {
  if ('wrappedKey' in request && request.createdBy === uid) {
    const privateKey = await unwrapRequestKey(request.wrappedKey, vaultPassphrase, request.id)
    try {
      return { privateKey, opened: await call('openVaultRequest', { id: request.id }) }
    } catch (failure) {
      privateKey.fill(0)
      throw failure
    }
  }
  const own = await readVaultKey(uid)
  if (!own) throw new VaultCryptoError('Set up your vault key first.')
  const memberKey = await unwrapMemberKey(uid, own.wrappedKey, vaultPassphrase)
  try {
    const opened = await call('openVaultRequest', { id: request.id })
    if (opened.as !== 'team') throw new VaultCryptoError('This answer was not shared with your vault key')
    if (opened.publicKey !== own.publicKey)
      throw new VaultCryptoError('This answer was shared with an earlier vault key of yours: ask the analyst who asked for a new request.')
    const privateKey = await openRequestKeyAsMember(request.id, { uid, publicKey: own.publicKey }, memberKey, opened.teamKey)
    return { privateKey, opened }
  } finally {
    memberKey.fill(0)
  }
}

/** Opens the request's answer in this browser with the vault passphrase, and fetches and opens its files. */
export async function openRequestAnswer(
  request: VaultRequest | VaultRequestShare,
  uid: string,
  vaultPassphrase: string,
): Promise<{ payload: VaultPayload; files: OpenedFile[] }> {
  if (request.state !== 'answered') throw new Error('No answer yet.')
  const { privateKey, opened } = await requestKeyFor(request, uid, vaultPassphrase)
  const payload = await openAnswerWithKey(
    privateKey,
    { id: request.id, company: request.company, expiresAt: request.expiresAt },
    opened.answer,
  )
  const files =
    payload.files.length > 0 && payload.filesToken
      ? await downloadFiles(request.id, payload.filesToken, payload.files, REQUEST_FILES_PATH)
      : []
  return { payload, files }
}
