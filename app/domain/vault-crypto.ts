// The vault's share-link cryptography, WebCrypto only, so browser, functions and tests run the same
// code (decision 0018). The link's random key K never leaves the URL fragment. From it:
//   findToken   = HKDF(K, salt=id, info=find)        proves the link is held; the server stores its hash
//   IKM         = K || PBKDF2-SHA256(passphrase)     or K alone
//   key         = HKDF(IKM, salt=id, info=enc)       AES-256-GCM, the link's policy as additional data
//   openToken   = HKDF(IKM, salt=id, info=open)      proves K and the passphrase; the server stores its hash
// The server can thus refuse a wrong passphrase (and count it) without ever holding anything that
// decrypts, and only someone who holds the link can spend its tries.

export const VAULT_PBKDF2_ITERATIONS = 600_000
const KEY_BYTES = 32
const ID_BYTES = 16
const IV_BYTES = 12
const SALT_BYTES = 16
const INFO = {
  find: 'bulwark/vault/link/v1/find',
  enc: 'bulwark/vault/link/v1/enc',
  open: 'bulwark/vault/link/v1/open',
  files: 'bulwark/vault/link/v1/files',
} as const

/** Decryption failed: a wrong key or passphrase, or a ciphertext or policy changed on the way. */
export class VaultCryptoError extends Error {
  override readonly name = 'VaultCryptoError'
}

/** The shortest vault passphrase an analyst may choose (it guards keys that open every answer). */
export const VAULT_PASSPHRASE_MIN_LENGTH = 8

export function assertVaultPassphrase(vaultPassphrase: string): void {
  if (vaultPassphrase.length < VAULT_PASSPHRASE_MIN_LENGTH)
    throw new VaultCryptoError(`The vault passphrase needs at least ${VAULT_PASSPHRASE_MIN_LENGTH} characters`)
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** Bytes as unpadded base64url: safe in a path, a fragment and a Firestore field. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new VaultCryptoError('Not base64url')
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** A WebCrypto key, spelled so that both the DOM's and Node's typings read it. */
export type VaultKey = Awaited<ReturnType<typeof crypto.subtle.deriveKey>>

export const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n))

/** A link id: 16 random bytes, made in the browser so it is bound into the keys. */
export const newVaultId = () => toBase64Url(randomBytes(ID_BYTES))

/** The link's key K as it travels in the fragment (43 characters). */
export const newLinkKey = () => toBase64Url(randomBytes(KEY_BYTES))

export const LINK_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/
export const LINK_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** SHA-256 of a token, base64url: all the server keeps of it. */
export async function tokenHash(token: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token))))
}

/** What the link promises, bound to its ciphertext: the server cannot change any of it unnoticed. */
export interface LinkPolicy {
  id: string
  company: string
  /** Epoch milliseconds. */
  expiresAt: number
  maxViews: number
  /** Lowercased address the recipient must sign in with, or null. */
  recipient: string | null
  passphrase: boolean
}

/** The policy as additional data: fixed key order, so both ends write the same bytes. */
export function policyBytes(policy: LinkPolicy): Uint8Array<ArrayBuffer> {
  const { id, company, expiresAt, maxViews, recipient, passphrase } = policy
  return encoder.encode(JSON.stringify({ v: 1, id, company, expiresAt, maxViews, recipient, passphrase }))
}

export interface PassphraseKdf {
  salt: string
  iterations: number
}

export const newPassphraseKdf = (): PassphraseKdf => ({ salt: toBase64Url(randomBytes(SALT_BYTES)), iterations: VAULT_PBKDF2_ITERATIONS })

/** PBKDF2-SHA256 of a passphrase: 32 bytes. Runs in the browser only (workerd caps the iterations). */
export async function stretchPassphrase(passphrase: string, kdf: PassphraseKdf): Promise<Uint8Array<ArrayBuffer>> {
  if (kdf.iterations < VAULT_PBKDF2_ITERATIONS) throw new VaultCryptoError('Too few PBKDF2 iterations')
  const base = await crypto.subtle.importKey('raw', encoder.encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: fromBase64Url(kdf.salt), iterations: kdf.iterations },
    base,
    256,
  )
  return new Uint8Array(bits)
}

const hkdf = (salt: Uint8Array<ArrayBuffer>, info: string) => ({ name: 'HKDF', hash: 'SHA-256', salt, info: encoder.encode(info) })

async function hkdfBits(ikm: VaultKey, id: string, info: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.deriveBits(hkdf(encoder.encode(id), info), ikm, 256)))
}

export interface LinkKeys {
  key: VaultKey
  findToken: string
  openToken: string
  /** Proves to the file store that the caller holds the link and its passphrase. */
  fileToken: string
}

/** The keys and tokens of a link from its fragment key and, when it has one, its passphrase. */
export async function deriveLinkKeys(id: string, linkKey: string, passphrase?: { text: string; kdf: PassphraseKdf }): Promise<LinkKeys> {
  const k = fromBase64Url(linkKey)
  if (k.length !== KEY_BYTES) throw new VaultCryptoError('The link key is not 256 bits')
  const findIkm = await crypto.subtle.importKey('raw', k, 'HKDF', false, ['deriveBits'])
  let ikmBytes: Uint8Array<ArrayBuffer> = k
  if (passphrase) {
    const stretched = await stretchPassphrase(passphrase.text, passphrase.kdf)
    ikmBytes = new Uint8Array(KEY_BYTES * 2)
    ikmBytes.set(k)
    ikmBytes.set(stretched, KEY_BYTES)
  }
  const ikm = await crypto.subtle.importKey('raw', ikmBytes, 'HKDF', false, ['deriveBits', 'deriveKey'])
  const key = await crypto.subtle.deriveKey(hkdf(encoder.encode(id), INFO.enc), ikm, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ])
  return {
    key,
    findToken: await hkdfBits(findIkm, id, INFO.find),
    openToken: await hkdfBits(ikm, id, INFO.open),
    fileToken: await hkdfBits(ikm, id, INFO.files),
  }
}

/** A sealed payload as stored: base64url ciphertext (tag included) and its 12-byte IV. */
export interface Sealed {
  ciphertext: string
  iv: string
}

/** What a share link carries: the text, and its files' keys and names (names never leave the ciphertext). */
export interface VaultPayload {
  text: string
  files: VaultFileEntry[]
  /** A request's answer: the token its files were stored under, for the analyst to fetch them. */
  filesToken?: string
}

export interface VaultFileEntry {
  name: string
  type: string
  size: number
  /** The file's own AES-256-GCM key, base64url. */
  key: string
  chunks: number
}

export async function sealBytes(
  key: VaultKey,
  plaintext: Uint8Array<ArrayBuffer>,
  additionalData: Uint8Array<ArrayBuffer>,
): Promise<Sealed> {
  const iv = randomBytes(IV_BYTES)
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, plaintext)
  return { ciphertext: toBase64Url(new Uint8Array(ciphertext)), iv: toBase64Url(iv) }
}

export async function openBytes(key: VaultKey, sealed: Sealed, additionalData: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const iv = fromBase64Url(sealed.iv)
    if (iv.length !== IV_BYTES) throw new VaultCryptoError('Bad IV')
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, key, fromBase64Url(sealed.ciphertext)))
  } catch {
    throw new VaultCryptoError('The secret could not be decrypted')
  }
}

export const sealPayload = (key: VaultKey, payload: VaultPayload, policy: LinkPolicy) =>
  sealBytes(key, encoder.encode(JSON.stringify(payload)), policyBytes(policy))

export async function openPayload(key: VaultKey, sealed: Sealed, policy: LinkPolicy): Promise<VaultPayload> {
  const bytes = await openBytes(key, sealed, policyBytes(policy))
  const parsed: unknown = JSON.parse(decoder.decode(bytes))
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as VaultPayload).text !== 'string')
    throw new VaultCryptoError('Unreadable payload')
  const files = Array.isArray((parsed as VaultPayload).files) ? (parsed as VaultPayload).files : []
  return { text: (parsed as VaultPayload).text, files }
}

/** Everything the analyst's browser sends to create a link, and the fragment key it keeps. */
export interface NewShareLink {
  linkKey: string
  fileToken: string
  findTokenHash: string
  openTokenHash: string
  kdf: PassphraseKdf | null
  sealed: Sealed
}

/** Encrypts a payload for a new link under `policy` (its id made by newVaultId). */
export async function createShareLink(
  policy: LinkPolicy,
  payload: VaultPayload,
  passphrase: string | null,
  linkKey = newLinkKey(),
): Promise<NewShareLink> {
  if (policy.passphrase !== (passphrase !== null)) throw new VaultCryptoError('The policy and the passphrase disagree')
  const kdf = passphrase === null ? null : newPassphraseKdf()
  const keys = await deriveLinkKeys(policy.id, linkKey, kdf && passphrase !== null ? { text: passphrase, kdf } : undefined)
  const sealed = await sealPayload(keys.key, payload, policy)
  return {
    linkKey,
    fileToken: keys.fileToken,
    findTokenHash: await tokenHash(keys.findToken),
    openTokenHash: await tokenHash(keys.openToken),
    kdf,
    sealed,
  }
}

/** The find token alone, for the state-neutral look at a link before anything is revealed. */
export async function findTokenOf(id: string, linkKey: string): Promise<string> {
  const k = fromBase64Url(linkKey)
  if (k.length !== KEY_BYTES) throw new VaultCryptoError('The link key is not 256 bits')
  return hkdfBits(await crypto.subtle.importKey('raw', k, 'HKDF', false, ['deriveBits']), id, INFO.find)
}

// ---- Files ---------------------------------------------------------------------------------------

/** Files are sealed in chunks of 1 MiB, each on its own IV, bound to its link, file, place and end. */
export const FILE_CHUNK_BYTES = 1024 * 1024
/** A sealed chunk: its IV, then the ciphertext with its tag. */
export const SEALED_CHUNK_OVERHEAD = IV_BYTES + 16

const chunkData = (id: string, file: number, chunk: number, last: boolean) => encoder.encode(`${id}|${file}|${chunk}|${last ? 1 : 0}`)

export const chunkCount = (size: number) => Math.max(1, Math.ceil(size / FILE_CHUNK_BYTES))

/** A fresh key for one file, base64url. */
export const newFileKey = () => toBase64Url(randomBytes(KEY_BYTES))

const fileKey = (key: string) => crypto.subtle.importKey('raw', fromBase64Url(key), 'AES-GCM', false, ['encrypt', 'decrypt'])

/** Seals one chunk of a file: IV || ciphertext. */
export async function sealChunk(
  key: string,
  id: string,
  file: number,
  chunk: number,
  last: boolean,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const iv = randomBytes(IV_BYTES)
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: chunkData(id, file, chunk, last) }, await fileKey(key), bytes),
  )
  const out = new Uint8Array(IV_BYTES + sealed.length)
  out.set(iv)
  out.set(sealed, IV_BYTES)
  return out
}

export async function openChunk(
  key: string,
  id: string,
  file: number,
  chunk: number,
  last: boolean,
  sealed: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.subarray(0, IV_BYTES), additionalData: chunkData(id, file, chunk, last) },
      await fileKey(key),
      sealed.subarray(IV_BYTES),
    )
    return new Uint8Array(plain)
  } catch {
    throw new VaultCryptoError('A file could not be decrypted')
  }
}
