import { describe, expect, it } from 'vitest'
import {
  AgentAuthError,
  claimedAgentId,
  generateAgentKeyPair,
  importAgentPrivateKey,
  newEnrolmentToken,
  EnrolmentTokenSchema,
  signAgentRequest,
  verifyAgentRequest,
} from './agent-auth.ts'
import * as v from 'valibot'

const request = { method: 'POST', path: '/heartbeat', body: '{"version":"1.0.0"}' }
const NOW = Date.UTC(2026, 10, 24, 12)

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AgentAuthError)
  return (error as Error).message
}

describe('agent request signing', () => {
  it('signs a request the agent’s public key verifies, naming the agent', async () => {
    const { pair } = await generateAgentKeyPair()
    const header = await signAgentRequest('agent-1', pair.privateKey, request, NOW)
    expect(claimedAgentId(header)).toBe('agent-1')
    const payload = await verifyAgentRequest(header, pair.publicKey, request, NOW + 5_000)
    expect(payload).toMatchObject({ iss: 'agent-1', htm: 'POST', htu: '/heartbeat' })
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(60)
  })

  it('gives every request its own token id, so the server can refuse a second use', async () => {
    const { pair } = await generateAgentKeyPair()
    const one = await verifyAgentRequest(await signAgentRequest('a', pair.privateKey, request, NOW), pair.publicKey, request, NOW)
    const two = await verifyAgentRequest(await signAgentRequest('a', pair.privateKey, request, NOW), pair.publicKey, request, NOW)
    expect(one.jti).not.toBe(two.jti)
  })

  it('keeps working after the private key is saved and loaded again', async () => {
    const { pair, privateKeyText } = await generateAgentKeyPair()
    const loaded = await importAgentPrivateKey(privateKeyText)
    await expect(verifyAgentRequest(await signAgentRequest('a', loaded, request, NOW), pair.publicKey, request, NOW)).resolves.toBeTruthy()
  })

  it('refuses another key, another body, another path or method, and a token past its life', async () => {
    const { pair } = await generateAgentKeyPair()
    const other = await generateAgentKeyPair()
    const header = await signAgentRequest('a', pair.privateKey, request, NOW)
    expect(await refusal(verifyAgentRequest(header, other.pair.publicKey, request, NOW))).toMatch(/signature/)
    expect(await refusal(verifyAgentRequest(header, pair.publicKey, { ...request, body: '{"version":"2"}' }, NOW))).toMatch(/body/)
    expect(await refusal(verifyAgentRequest(header, pair.publicKey, { ...request, path: '/lease' }, NOW))).toMatch(/another request/)
    expect(await refusal(verifyAgentRequest(header, pair.publicKey, { ...request, method: 'PUT' }, NOW))).toMatch(/another request/)
    expect(await refusal(verifyAgentRequest(header, pair.publicKey, request, NOW + 61_000))).toMatch(/expired/)
    expect(await refusal(verifyAgentRequest(header, pair.publicKey, request, NOW - 31_000))).toMatch(/future/)
  })

  it('refuses a token whose header or payload was changed after signing', async () => {
    const { pair } = await generateAgentKeyPair()
    const header = await signAgentRequest('a', pair.privateKey, request, NOW)
    const [head, body, sig] = header.slice('Agent '.length).split('.') as [string, string, string]
    const forged = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>
    forged.exp = (forged.exp as number) + 3600
    const tampered = `Agent ${head}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${sig}`
    expect(await refusal(verifyAgentRequest(tampered, pair.publicKey, request, NOW))).toMatch(/signature/)
    expect(await refusal(verifyAgentRequest('Bearer abc', pair.publicKey, request, NOW))).toMatch(/Sign the request/)
  })

  it('makes enrolment tokens that the schema knows and that never repeat', () => {
    const a = newEnrolmentToken()
    expect(v.parse(EnrolmentTokenSchema, a)).toBe(a)
    expect(newEnrolmentToken()).not.toBe(a)
    expect(v.safeParse(EnrolmentTokenSchema, 'bwk_enr_short').success).toBe(false)
  })
})
