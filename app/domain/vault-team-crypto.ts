// Team access to request answers (decision 0022). Each analyst has a vault key pair (P-256): the
// public key is published in vault_keys/{uid}, the private key is stored beside it wrapped under
// AES-256-GCM with a key from their vault passphrase (PBKDF2-SHA256, 600,000 iterations, in the
// browser) and bound to their uid. A request shared with its company's engagement carries its
// private key HPKE-sealed to each colleague's public key, bound to the request and the colleague;
// only that colleague's passphrase opens it. The server holds public keys and ciphertext only.
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core'
import {
  assertVaultPassphrase,
  fromBase64Url,
  newPassphraseKdf,
  openBytes,
  sealBytes,
  stretchPassphrase,
  toBase64Url,
  VaultCryptoError,
  type PassphraseKdf,
  type Sealed,
} from './vault-crypto.ts'

const encoder = new TextEncoder()
const INFO = {
  member: 'bulwark/vault/member-key/v1|',
  team: 'bulwark/vault/team/v1|',
} as const
const PUBLIC_KEY_BYTES = 65
const PRIVATE_KEY_BYTES = 32

export const MEMBER_PUBLIC_KEY_PATTERN = /^[A-Za-z0-9_-]{87}$/

const suite = () => new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() })

/** A private key as stored: sealed under the vault passphrase's key. */
export interface PassphraseWrapped extends Sealed {
  kdf: PassphraseKdf
}

/** An analyst's published vault key and its private half, wrapped. */
export interface MemberKey {
  publicKey: string
  wrappedKey: PassphraseWrapped
}

/** A request's private key sealed to one colleague: the HPKE encapsulated key and ciphertext, base64url. */
export interface TeamKey {
  enc: string
  ciphertext: string
}

async function passphraseKey(passphrase: string, kdf: PassphraseKdf) {
  const stretched = await stretchPassphrase(passphrase, kdf)
  return crypto.subtle.importKey('raw', stretched, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

function publicKeyBytes(publicKey: string): Uint8Array<ArrayBuffer> {
  const bytes = MEMBER_PUBLIC_KEY_PATTERN.test(publicKey) ? fromBase64Url(publicKey) : new Uint8Array(0)
  if (bytes.length !== PUBLIC_KEY_BYTES || bytes[0] !== 4) throw new VaultCryptoError('Not a P-256 public key')
  return bytes
}

/** A fresh vault key pair for `uid`; the private key leaves only wrapped under the passphrase. */
export async function createMemberKey(uid: string, vaultPassphrase: string): Promise<MemberKey> {
  assertVaultPassphrase(vaultPassphrase)
  const kem = suite().kem
  const pair = await kem.generateKeyPair()
  const publicKey = new Uint8Array(await kem.serializePublicKey(pair.publicKey))
  const privateKey = new Uint8Array(await kem.serializePrivateKey(pair.privateKey))
  const kdf = newPassphraseKdf()
  const sealed = await sealBytes(await passphraseKey(vaultPassphrase, kdf), privateKey, encoder.encode(INFO.member + uid))
  privateKey.fill(0)
  return { publicKey: toBase64Url(publicKey), wrappedKey: { ...sealed, kdf } }
}

/** The private half of `uid`'s vault key: refused for a wrong passphrase or another person's key. */
export async function unwrapMemberKey(uid: string, wrapped: PassphraseWrapped, vaultPassphrase: string): Promise<Uint8Array<ArrayBuffer>> {
  const privateKey = await openBytes(await passphraseKey(vaultPassphrase, wrapped.kdf), wrapped, encoder.encode(INFO.member + uid)).catch(
    () => {
      throw new VaultCryptoError('Wrong vault passphrase')
    },
  )
  if (privateKey.length !== PRIVATE_KEY_BYTES) throw new VaultCryptoError('Not a P-256 private key')
  return privateKey
}

const teamInfo = (requestId: string, uid: string) => encoder.encode(`${INFO.team}${requestId}|${uid}`)

/** Seals request `requestId`'s private key to colleague `uid`'s published key. */
export async function sealRequestKeyTo(
  requestId: string,
  member: { uid: string; publicKey: string },
  requestPrivateKey: Uint8Array<ArrayBuffer>,
): Promise<TeamKey> {
  const s = suite()
  const recipientPublicKey = await s.kem.deserializePublicKey(publicKeyBytes(member.publicKey))
  const sealed = await s.seal(
    { recipientPublicKey, info: teamInfo(requestId, member.uid) },
    requestPrivateKey,
    publicKeyBytes(member.publicKey),
  )
  return { enc: toBase64Url(new Uint8Array(sealed.enc)), ciphertext: toBase64Url(new Uint8Array(sealed.ct)) }
}

/**
 * Opens the request key sealed to colleague `uid` with their unwrapped vault key. Refused when the
 * seal was made for another request, another colleague or another key, or was changed.
 */
export async function openRequestKeyAsMember(
  requestId: string,
  member: { uid: string; publicKey: string },
  memberPrivateKey: Uint8Array<ArrayBuffer>,
  teamKey: TeamKey,
): Promise<Uint8Array<ArrayBuffer>> {
  const s = suite()
  try {
    const recipientKey = await s.kem.deserializePrivateKey(memberPrivateKey)
    const opened = await s.open(
      { recipientKey, enc: fromBase64Url(teamKey.enc), info: teamInfo(requestId, member.uid) },
      fromBase64Url(teamKey.ciphertext),
      publicKeyBytes(member.publicKey),
    )
    const privateKey = new Uint8Array(opened)
    if (privateKey.length !== PRIVATE_KEY_BYTES) throw new VaultCryptoError('Not a P-256 private key')
    return privateKey
  } catch {
    throw new VaultCryptoError('This answer was not shared with your vault key')
  }
}

/** A short fingerprint of a public key, for people to compare: SHA-256, first 10 bytes, hex in groups of four. */
export async function keyFingerprint(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', publicKeyBytes(publicKey)))
  const hex = Array.from(digest.subarray(0, 10), (b) => b.toString(16).padStart(2, '0')).join('')
  return hex.toUpperCase().match(/.{4}/g)!.join(' ')
}
