// The vault's request-link cryptography (decision 0018): HPKE (RFC 9180) base mode with
// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-256-GCM, through @hpke/core (WebCrypto only).
// Each request has a fresh key pair. Its public key travels in the link's fragment with a submit
// secret S, so the server can neither swap the key nor accept an answer from someone without the
// link; the server keeps only SHA-256 of the submit token HKDF(S). The private key is stored
// wrapped under AES-256-GCM with a key from the analyst's vault passphrase (PBKDF2-SHA256,
// 600,000 iterations, in the browser), so the server never holds it unwrapped.
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core'
import {
  assertVaultPassphrase,
  fromBase64Url,
  newPassphraseKdf,
  openBytes,
  randomBytes,
  sealBytes,
  stretchPassphrase,
  toBase64Url,
  tokenHash,
  VaultCryptoError,
  type PassphraseKdf,
  type Sealed,
  type VaultPayload,
} from './vault-crypto.ts'
import { sealRequestKeyTo, type TeamKey } from './vault-team-crypto.ts'

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })
const INFO = {
  hpke: 'bulwark/vault/request/v1|',
  submit: 'bulwark/vault/request/v1/submit',
  files: 'bulwark/vault/request/v1/files',
  wrap: 'bulwark/vault/request/v1/key|',
} as const
const PUBLIC_KEY_BYTES = 65
const SECRET_BYTES = 32

export const requestSuite = () => new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() })

/** What the answer is bound to: the server cannot move it to another request or company. */
export interface RequestPolicy {
  id: string
  company: string
  expiresAt: number
}

export function requestPolicyBytes(policy: RequestPolicy): Uint8Array<ArrayBuffer> {
  const { id, company, expiresAt } = policy
  return encoder.encode(JSON.stringify({ v: 1, id, company, expiresAt }))
}

/** The fragment of a request link: the request's public key and its submit secret, base64url, dot-separated. */
export const REQUEST_FRAGMENT_PATTERN = /^[A-Za-z0-9_-]{87}\.[A-Za-z0-9_-]{43}$/

export function parseRequestFragment(fragment: string): { publicKey: Uint8Array<ArrayBuffer>; secret: string } {
  if (!REQUEST_FRAGMENT_PATTERN.test(fragment)) throw new VaultCryptoError('This request link is not complete')
  const [pk, secret] = fragment.split('.') as [string, string]
  const publicKey = fromBase64Url(pk)
  if (publicKey.length !== PUBLIC_KEY_BYTES || publicKey[0] !== 4) throw new VaultCryptoError('Not a P-256 public key')
  return { publicKey, secret }
}

async function secretToken(id: string, secret: string, info: string): Promise<string> {
  const s = fromBase64Url(secret)
  if (s.length !== SECRET_BYTES) throw new VaultCryptoError('The request secret is not 256 bits')
  const ikm = await crypto.subtle.importKey('raw', s, 'HKDF', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(id), info: encoder.encode(info) },
    ikm,
    256,
  )
  return toBase64Url(new Uint8Array(bits))
}

/** The token an answer is submitted with, from the link's secret. */
export const submitTokenOf = (id: string, secret: string) => secretToken(id, secret, INFO.submit)

/**
 * The token the client's sealed file chunks are stored under, from the link's secret: the file
 * store lets it upload while the request is open, and it travels to the analyst inside the answer.
 */
export const filesTokenOf = (id: string, secret: string) => secretToken(id, secret, INFO.files)

/** The private key as stored: sealed under the vault passphrase's key, bound to its request. */
export interface WrappedKey extends Sealed {
  kdf: PassphraseKdf
}

async function wrappingKey(passphrase: string, kdf: PassphraseKdf) {
  const stretched = await stretchPassphrase(passphrase, kdf)
  return crypto.subtle.importKey('raw', stretched, 'AES-GCM', false, ['encrypt', 'decrypt'])
}

export interface NewRequestLink {
  /** `<public key>.<secret>`, for the link's fragment only. */
  fragment: string
  submitTokenHash: string
  filesTokenHash: string
  wrappedKey: WrappedKey
  /** The private key sealed to each colleague's published vault key, by uid (decision 0022). */
  teamKeys: Record<string, TeamKey>
}

/**
 * A fresh key pair and submit secret for request `id`; the private key leaves only wrapped under
 * the vault passphrase and sealed to the given colleagues' vault keys.
 */
export async function createRequestLink(
  id: string,
  vaultPassphrase: string,
  team: readonly { uid: string; publicKey: string }[] = [],
): Promise<NewRequestLink> {
  assertVaultPassphrase(vaultPassphrase)
  const suite = requestSuite()
  const pair = await suite.kem.generateKeyPair()
  const publicKey = new Uint8Array(await suite.kem.serializePublicKey(pair.publicKey))
  const privateKey = new Uint8Array(await suite.kem.serializePrivateKey(pair.privateKey))
  const secret = toBase64Url(randomBytes(SECRET_BYTES))
  const kdf = newPassphraseKdf()
  const sealed = await sealBytes(await wrappingKey(vaultPassphrase, kdf), privateKey, encoder.encode(INFO.wrap + id))
  const teamKeys: Record<string, TeamKey> = {}
  try {
    for (const member of team) teamKeys[member.uid] = await sealRequestKeyTo(id, member, privateKey)
  } finally {
    privateKey.fill(0)
  }
  return {
    fragment: `${toBase64Url(publicKey)}.${secret}`,
    submitTokenHash: await tokenHash(await submitTokenOf(id, secret)),
    filesTokenHash: await tokenHash(await filesTokenOf(id, secret)),
    wrappedKey: { ...sealed, kdf },
    teamKeys,
  }
}

/** What a client's browser sends: the HPKE encapsulated key and the ciphertext, base64url. */
export interface SealedAnswer {
  enc: string
  ciphertext: string
}

/** Seals an answer to the request's public key, as the client's browser does. */
export async function sealAnswer(publicKey: Uint8Array<ArrayBuffer>, policy: RequestPolicy, payload: VaultPayload): Promise<SealedAnswer> {
  const suite = requestSuite()
  const recipientPublicKey = await suite.kem.deserializePublicKey(publicKey)
  const sealed = await suite.seal(
    { recipientPublicKey, info: encoder.encode(INFO.hpke + policy.id) },
    encoder.encode(JSON.stringify(payload)),
    requestPolicyBytes(policy),
  )
  return { enc: toBase64Url(new Uint8Array(sealed.enc)), ciphertext: toBase64Url(new Uint8Array(sealed.ct)) }
}

/** The request's private key, unwrapped with the vault passphrase of the analyst who asked. */
export async function unwrapRequestKey(wrapped: WrappedKey, vaultPassphrase: string, id: string): Promise<Uint8Array<ArrayBuffer>> {
  return openBytes(await wrappingKey(vaultPassphrase, wrapped.kdf), wrapped, encoder.encode(INFO.wrap + id)).catch(() => {
    throw new VaultCryptoError('Wrong vault passphrase')
  })
}

/** HPKE-opens an answer with the request's private key (zeroed afterwards), however it was obtained. */
export async function openAnswerWithKey(
  privateKey: Uint8Array<ArrayBuffer>,
  policy: RequestPolicy,
  answer: SealedAnswer,
): Promise<VaultPayload> {
  const suite = requestSuite()
  try {
    const recipientKey = await suite.kem.deserializePrivateKey(privateKey)
    const plaintext = await suite.open(
      { recipientKey, enc: fromBase64Url(answer.enc), info: encoder.encode(INFO.hpke + policy.id) },
      fromBase64Url(answer.ciphertext),
      requestPolicyBytes(policy),
    )
    const parsed = JSON.parse(decoder.decode(plaintext)) as VaultPayload
    if (typeof parsed.text !== 'string') throw new VaultCryptoError('Unreadable payload')
    return {
      text: parsed.text,
      files: Array.isArray(parsed.files) ? parsed.files : [],
      ...(typeof parsed.filesToken === 'string' ? { filesToken: parsed.filesToken } : {}),
    }
  } catch {
    throw new VaultCryptoError('The answer could not be decrypted')
  } finally {
    privateKey.fill(0)
  }
}

/** Opens an answer with the vault passphrase: unwraps the request's key, then HPKE-opens. */
export async function openAnswer(
  wrapped: WrappedKey,
  vaultPassphrase: string,
  policy: RequestPolicy,
  answer: SealedAnswer,
): Promise<VaultPayload> {
  return openAnswerWithKey(await unwrapRequestKey(wrapped, vaultPassphrase, policy.id), policy, answer)
}
