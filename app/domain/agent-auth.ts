// How an agent proves who it is (decision 0021). Enrolment exchanges a one-time token (shown once,
// stored as its SHA-256) and the agent's Ed25519 public key for an agent id. After that every
// request carries `Authorization: Agent <token>`: a JWS signed with the agent's private key, valid
// for at most 60 s, bound to the method, the path and the body's SHA-256, with a random id the
// server records until the token expires, so a token is accepted once. WebCrypto only: the agent,
// the functions and a Worker run the same code.
import * as v from 'valibot'
import type { AgentPublicKey } from './agents.ts'

export const AGENT_TOKEN_AUDIENCE = 'bulwark-agent-api'
export const AGENT_TOKEN_MAX_AGE_S = 60
/** Clock difference tolerated between an agent and the server. */
export const AGENT_CLOCK_SKEW_S = 30
export const ENROLMENT_TOKEN_PREFIX = 'bwk_enr_'

const encoder = new TextEncoder()

export function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

export async function sha256Hex(text: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', typeof text === 'string' ? encoder.encode(text) : text)
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

const sha256B64 = async (body: string | Uint8Array<ArrayBuffer>) =>
  base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', typeof body === 'string' ? encoder.encode(body) : body)))

/** A fresh enrolment token: the prefix lets secret scanners recognise it; 32 random bytes make it unguessable. */
export function newEnrolmentToken(): string {
  return `${ENROLMENT_TOKEN_PREFIX}${base64url(crypto.getRandomValues(new Uint8Array(32)))}`
}

export const EnrolmentTokenSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^bwk_enr_[A-Za-z0-9_-]{43}$/, 'This is not an enrolment token: copy it again from the agents page.'),
)

/** WebCrypto's key and JWK types, named so that both the DOM's and Node's type libraries accept them. */
export type SigningKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>
/** The agent's private key as it keeps it on disk: PKCS #8, base64url. */
export type PrivateKeyText = string

export interface AgentKeyPair {
  privateKey: SigningKey
  publicKey: AgentPublicKey
}

export async function generateAgentKeyPair(): Promise<{ pair: AgentKeyPair; privateKeyText: PrivateKeyText }> {
  const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as unknown as {
    privateKey: SigningKey
    publicKey: SigningKey
  }
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey))
  const privateKeyText = base64url(new Uint8Array(await crypto.subtle.exportKey('pkcs8', keys.privateKey)))
  return { pair: { privateKey: keys.privateKey, publicKey: { kty: 'OKP', crv: 'Ed25519', x: base64url(raw) } }, privateKeyText }
}

export const importAgentPrivateKey = (text: PrivateKeyText) =>
  crypto.subtle.importKey('pkcs8', fromBase64url(text), { name: 'Ed25519' }, false, ['sign'])

const TokenHeaderSchema = v.object({ alg: v.literal('EdDSA'), typ: v.literal('bulwark-agent'), kid: v.string() })
const TokenPayloadSchema = v.object({
  iss: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  aud: v.literal(AGENT_TOKEN_AUDIENCE),
  iat: v.pipe(v.number(), v.integer()),
  exp: v.pipe(v.number(), v.integer()),
  jti: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/)),
  htm: v.string(),
  htu: v.string(),
  bh: v.string(),
})
export type AgentTokenPayload = v.InferOutput<typeof TokenPayloadSchema>

export interface SignedRequest {
  method: string
  /** The request's path, query included, as the server sees it. */
  path: string
  body: string
}

/** The Authorization header value for one request, valid for `ttlS` seconds from `now` (ms). */
export async function signAgentRequest(
  agentId: string,
  privateKey: SigningKey,
  request: SignedRequest,
  now = Date.now(),
  ttlS = 30,
): Promise<string> {
  const iat = Math.floor(now / 1000)
  const header = { alg: 'EdDSA', typ: 'bulwark-agent', kid: agentId }
  const payload: AgentTokenPayload = {
    iss: agentId,
    aud: AGENT_TOKEN_AUDIENCE,
    iat,
    exp: iat + Math.min(ttlS, AGENT_TOKEN_MAX_AGE_S),
    jti: base64url(crypto.getRandomValues(new Uint8Array(18))),
    htm: request.method.toUpperCase(),
    htu: request.path,
    bh: await sha256B64(request.body),
  }
  const signingInput = `${base64url(encoder.encode(JSON.stringify(header)))}.${base64url(encoder.encode(JSON.stringify(payload)))}`
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, encoder.encode(signingInput)))
  return `Agent ${signingInput}.${base64url(signature)}`
}

export class AgentAuthError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AgentAuthError'
  }
}

const decodeJson = (part: string): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(fromBase64url(part)))
  } catch {
    return null
  }
}

/** The agent id an Authorization header claims, before anything is verified (to find its key). */
export function claimedAgentId(authorization: string | null | undefined): string {
  const match = /^Agent ([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (!match) throw new AgentAuthError('Sign the request with the agent key (Authorization: Agent …).')
  const header = v.safeParse(TokenHeaderSchema, decodeJson(match[1]!))
  if (!header.success) throw new AgentAuthError('The request token is malformed.')
  return header.output.kid
}

/**
 * Checks a request's token against the agent's public key at `now` (ms): signature, audience, age,
 * method, path and body. The caller still records `jti` to refuse a second use.
 */
export async function verifyAgentRequest(
  authorization: string | null | undefined,
  publicKey: AgentPublicKey,
  request: SignedRequest,
  now = Date.now(),
): Promise<AgentTokenPayload> {
  const kid = claimedAgentId(authorization)
  const [head, body, signature] = authorization!.slice('Agent '.length).split('.') as [string, string, string]
  const key = await crypto.subtle.importKey('raw', fromBase64url(publicKey.x), { name: 'Ed25519' }, false, ['verify'])
  const valid = await crypto.subtle.verify({ name: 'Ed25519' }, key, fromBase64url(signature), encoder.encode(`${head}.${body}`))
  if (!valid) throw new AgentAuthError('The request signature does not match this agent’s key.')
  const parsed = v.safeParse(TokenPayloadSchema, decodeJson(body))
  if (!parsed.success) throw new AgentAuthError('The request token is malformed.')
  const payload = parsed.output
  const seconds = now / 1000
  if (payload.iss !== kid) throw new AgentAuthError('The request token names another agent.')
  if (payload.exp - payload.iat > AGENT_TOKEN_MAX_AGE_S) throw new AgentAuthError('The request token lives too long.')
  if (payload.iat > seconds + AGENT_CLOCK_SKEW_S) throw new AgentAuthError('The request token is from the future: check the agent’s clock.')
  if (payload.exp + AGENT_CLOCK_SKEW_S < seconds) throw new AgentAuthError('The request token has expired: check the agent’s clock.')
  if (payload.htm !== request.method.toUpperCase() || payload.htu !== request.path)
    throw new AgentAuthError('The request token was made for another request.')
  if (payload.bh !== (await sha256B64(request.body))) throw new AgentAuthError('The request body is not the one signed.')
  return payload
}
