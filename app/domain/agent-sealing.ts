// Sealed boxes to one agent (decision 0021): what an analyst's browser hands an agent for a password
// audit (the hash file, the word list) is encrypted to that agent's X25519 key, so the server, its
// database and its logs hold only ciphertext. ECDH-ES: a fresh ephemeral X25519 key per box, the
// shared secret through HKDF-SHA256 (salted with both public keys) into an AES-256-GCM key; the
// context (company, agent) is the additional data, so a box cannot be replayed to another agent
// or company. WebCrypto only, so the browser, the functions and the agent share this module.
import * as v from 'valibot'
import { fromBase64Url, toBase64Url } from './vault-crypto.ts'

export const SealingKeySchema = v.object({
  kty: v.literal('OKP'),
  crv: v.literal('X25519'),
  x: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a 32-byte X25519 public key')),
})
export type SealingKey = v.InferOutput<typeof SealingKeySchema>

export const SealedBoxSchema = v.object({
  v: v.literal(1),
  epk: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
  iv: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16}$/)),
  ct: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]+$/)),
})
export type SealedBox = v.InferOutput<typeof SealedBoxSchema>

export class SealingError extends Error {}

const INFO = new TextEncoder().encode('bulwark agent sealed box v1')
const X25519 = { name: 'X25519' } as const
/** WebCrypto's key types, named without the DOM library (the functions compile without it). */
type WebKey = Awaited<ReturnType<typeof crypto.subtle.deriveKey>>
type WebKeyPair = { publicKey: WebKey; privateKey: WebKey }

/** A new key pair: the public half goes to the server, the private half (PKCS#8, base64url) stays in the agent's state file. */
export async function generateSealingKeyPair(): Promise<{ publicKey: SealingKey; privateKeyText: string }> {
  const pair = (await crypto.subtle.generateKey(X25519, true, ['deriveBits'])) as WebKeyPair
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey))
  return { publicKey: { kty: 'OKP', crv: 'X25519', x: toBase64Url(raw) }, privateKeyText: toBase64Url(pkcs8) }
}

/** The box's context as additional data: who it is for, within which company. */
const contextBytes = (context: { company: string; agentId: string }) =>
  new TextEncoder().encode(JSON.stringify(['bulwark-sealed', context.company, context.agentId]))

async function boxKey(shared: ArrayBuffer, epk: Uint8Array<ArrayBuffer>, recipient: Uint8Array<ArrayBuffer>): Promise<WebKey> {
  const ikm = await crypto.subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey'])
  const salt = new Uint8Array(epk.length + recipient.length)
  salt.set(epk)
  salt.set(recipient, epk.length)
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt, info: INFO }, ikm, { name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ])
}

/** Encrypts `plaintext` to the agent's public key. */
export async function sealTo(
  recipient: SealingKey,
  plaintext: Uint8Array<ArrayBuffer>,
  context: { company: string; agentId: string },
): Promise<SealedBox> {
  const recipientRaw = fromBase64Url(v.parse(SealingKeySchema, recipient).x)
  const recipientKey = await crypto.subtle.importKey('raw', recipientRaw, X25519, false, [])
  const ephemeral = (await crypto.subtle.generateKey(X25519, true, ['deriveBits'])) as WebKeyPair
  const epk = new Uint8Array(await crypto.subtle.exportKey('raw', ephemeral.publicKey))
  const shared = await crypto.subtle.deriveBits({ name: 'X25519', public: recipientKey }, ephemeral.privateKey, 256)
  const key = await boxKey(shared, epk, recipientRaw)
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: contextBytes(context) }, key, plaintext))
  return { v: 1, epk: toBase64Url(epk), iv: toBase64Url(iv), ct: toBase64Url(ct) }
}

/** Opens a box with the agent's private key; a changed byte, another agent's key or another context is refused. */
export async function openSealed(
  privateKeyText: string,
  publicKey: SealingKey,
  box: SealedBox,
  context: { company: string; agentId: string },
): Promise<Uint8Array<ArrayBuffer>> {
  const parsed = v.safeParse(SealedBoxSchema, box)
  if (!parsed.success) throw new SealingError('The sealed input is malformed.')
  try {
    const privateKey = await crypto.subtle.importKey('pkcs8', fromBase64Url(privateKeyText), X25519, false, ['deriveBits'])
    const epk = fromBase64Url(parsed.output.epk)
    const ephemeral = await crypto.subtle.importKey('raw', epk, X25519, false, [])
    const shared = await crypto.subtle.deriveBits({ name: 'X25519', public: ephemeral }, privateKey, 256)
    const key = await boxKey(shared, epk, fromBase64Url(publicKey.x))
    const iv = fromBase64Url(parsed.output.iv)
    return new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: contextBytes(context) }, key, fromBase64Url(parsed.output.ct)),
    )
  } catch {
    throw new SealingError('The sealed input cannot be opened with this agent’s key: it was changed, or sealed to another agent.')
  }
}

/** What a password audit job carries, sealed: the hash file, the word list and the audit's settings. */
export const PasswordAuditInputSchema = v.object({
  ntds: v.string(),
  wordlist: v.string(),
  companyNames: v.array(v.string()),
  policyMinLength: v.number(),
  privilegedAccounts: v.array(v.string()),
})
export type PasswordAuditInput = v.InferOutput<typeof PasswordAuditInputSchema>

export const sealPasswordAudit = (recipient: SealingKey, input: PasswordAuditInput, context: { company: string; agentId: string }) =>
  sealTo(recipient, new TextEncoder().encode(JSON.stringify(input)), context)

export async function openPasswordAudit(
  privateKeyText: string,
  publicKey: SealingKey,
  box: SealedBox,
  context: { company: string; agentId: string },
): Promise<PasswordAuditInput> {
  const bytes = await openSealed(privateKeyText, publicKey, box, context)
  const parsed = v.safeParse(PasswordAuditInputSchema, JSON.parse(new TextDecoder().decode(bytes)))
  if (!parsed.success) throw new SealingError('The sealed input is not a password audit.')
  return parsed.output
}
