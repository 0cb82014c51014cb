import { describe, expect, it } from 'vitest'
import { fromBase64Url, newVaultId, toBase64Url, VaultCryptoError } from './vault-crypto.ts'
import { createRequestLink, openAnswerWithKey, parseRequestFragment, sealAnswer, type RequestPolicy } from './vault-request-crypto.ts'
import {
  createMemberKey,
  keyFingerprint,
  MEMBER_PUBLIC_KEY_PATTERN,
  openRequestKeyAsMember,
  unwrapMemberKey,
  type MemberKey,
  type TeamKey,
} from './vault-team-crypto.ts'

const policy = (): RequestPolicy => ({ id: newVaultId(), company: 'acme', expiresAt: Date.UTC(2026, 11, 1) })
const answer = { text: 'vpn user: acme-test / pw: Tr0ub4dor&3', files: [] }

// Each key pair costs a PBKDF2 of 600,000 rounds: made once for the file.
const colleague = { uid: 'colleague-uid', passphrase: 'colleague vault passphrase' }
const outsider = { uid: 'outsider-uid', passphrase: 'outsider vault passphrase' }
let colleagueKey: MemberKey
let outsiderKey: MemberKey
const keys = async () => {
  colleagueKey ??= await createMemberKey(colleague.uid, colleague.passphrase)
  outsiderKey ??= await createMemberKey(outsider.uid, outsider.passphrase)
  return { colleagueKey, outsiderKey }
}

/** A request shared with the colleague, answered by a client. */
async function sharedRequest() {
  const { colleagueKey } = await keys()
  const p = policy()
  const link = await createRequestLink(p.id, 'asking analyst passphrase', [{ uid: colleague.uid, publicKey: colleagueKey.publicKey }])
  const sealed = await sealAnswer(parseRequestFragment(link.fragment).publicKey, p, answer)
  return { p, link, sealed, teamKey: link.teamKeys[colleague.uid]! }
}

const flip = (text: string) => {
  const bytes = fromBase64Url(text)
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1
  return toBase64Url(bytes)
}

describe('team access to request answers', () => {
  it('a colleague opens the answer with their own vault passphrase: member key, sealed request key, answer', async () => {
    const { p, link, sealed, teamKey } = await sharedRequest()
    expect(colleagueKey.publicKey).toMatch(MEMBER_PUBLIC_KEY_PATTERN)
    expect(Object.keys(link.teamKeys)).toEqual([colleague.uid])
    const memberPrivate = await unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, colleague.passphrase)
    const requestKey = await openRequestKeyAsMember(p.id, { uid: colleague.uid, publicKey: colleagueKey.publicKey }, memberPrivate, teamKey)
    expect(await openAnswerWithKey(requestKey, p, sealed)).toEqual(answer)
    // The key is zeroed once used.
    expect(requestKey.every((b) => b === 0)).toBe(true)
  })

  it('a wrong passphrase or another person’s wrapped key does not unwrap the vault key', async () => {
    const { colleagueKey, outsiderKey } = await keys()
    await expect(unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, 'not the passphrase')).rejects.toThrow('Wrong vault passphrase')
    // Bound to its uid: the server cannot hand one person's wrapped key to another.
    await expect(unwrapMemberKey(outsider.uid, colleagueKey.wrappedKey, colleague.passphrase)).rejects.toThrow(VaultCryptoError)
    await expect(unwrapMemberKey(colleague.uid, outsiderKey.wrappedKey, outsider.passphrase)).rejects.toThrow(VaultCryptoError)
  })

  it('a non-member’s key cannot open the sealed request key, even given the colleague’s seal', async () => {
    const { p, teamKey } = await sharedRequest()
    const outsiderPrivate = await unwrapMemberKey(outsider.uid, outsiderKey.wrappedKey, outsider.passphrase)
    await expect(
      openRequestKeyAsMember(p.id, { uid: outsider.uid, publicKey: outsiderKey.publicKey }, outsiderPrivate.slice(), teamKey),
    ).rejects.toThrow('This answer was not shared with your vault key')
    // Claiming to be the colleague with the outsider's private key does not help either.
    await expect(
      openRequestKeyAsMember(p.id, { uid: colleague.uid, publicKey: colleagueKey.publicKey }, outsiderPrivate, teamKey),
    ).rejects.toThrow(VaultCryptoError)
  })

  it('a tampered seal, or one moved to another request or colleague, is refused', async () => {
    const { p, teamKey } = await sharedRequest()
    const member = { uid: colleague.uid, publicKey: colleagueKey.publicKey }
    const privateKey = () => unwrapMemberKey(colleague.uid, colleagueKey.wrappedKey, colleague.passphrase)
    const attempts: [RequestPolicy['id'], typeof member, TeamKey][] = [
      [p.id, member, { ...teamKey, ciphertext: flip(teamKey.ciphertext) }],
      [p.id, member, { ...teamKey, enc: flip(teamKey.enc) }],
      [newVaultId(), member, teamKey],
      [p.id, { ...member, uid: outsider.uid }, teamKey],
      [p.id, { ...member, publicKey: outsiderKey.publicKey }, teamKey],
    ]
    for (const [id, who, seal] of attempts)
      await expect(openRequestKeyAsMember(id, who, await privateKey(), seal)).rejects.toThrow(VaultCryptoError)
    // The untouched seal still opens: the refusals came from the changes.
    await expect(openRequestKeyAsMember(p.id, member, await privateKey(), teamKey)).resolves.toHaveLength(32)
  })

  it('a request not shared with anyone carries no team keys; fingerprints are stable and distinct', async () => {
    const link = await createRequestLink(newVaultId(), 'asking analyst passphrase')
    expect(link.teamKeys).toEqual({})
    const { colleagueKey, outsiderKey } = await keys()
    expect(await keyFingerprint(colleagueKey.publicKey)).toMatch(/^([0-9A-F]{4} ){4}[0-9A-F]{4}$/)
    expect(await keyFingerprint(colleagueKey.publicKey)).toBe(await keyFingerprint(colleagueKey.publicKey))
    expect(await keyFingerprint(colleagueKey.publicKey)).not.toBe(await keyFingerprint(outsiderKey.publicKey))
    await expect(keyFingerprint('not-a-key')).rejects.toThrow(VaultCryptoError)
  })
})
