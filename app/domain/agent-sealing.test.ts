import { describe, expect, it } from 'vitest'
import { generateSealingKeyPair, openPasswordAudit, openSealed, sealPasswordAudit, sealTo, SealingError } from './agent-sealing.ts'
import { fromBase64Url, toBase64Url } from './vault-crypto.ts'

const context = { company: 'acme', agentId: 'agent-1' }
const bytes = (text: string) => new TextEncoder().encode(text)
const input = {
  ntds: 'CORP\\alice:1104:aad3b435b51404eeaad3b435b51404ee:8846f7eaee8fb117ad06bdd830b7586c:::',
  wordlist: 'password\nSummer2024!\n',
  companyNames: ['Acme'],
  policyMinLength: 12,
  privilegedAccounts: [],
}

describe('sealed boxes to an agent', () => {
  it('opens with the agent’s key what was sealed to it, and the box holds no plaintext', async () => {
    const agent = await generateSealingKeyPair()
    const box = await sealPasswordAudit(agent.publicKey, input, context)
    const text = JSON.stringify(box)
    expect(text).not.toContain('8846f7ea')
    expect(text).not.toContain('Summer2024')
    expect(await openPasswordAudit(agent.privateKeyText, agent.publicKey, box, context)).toEqual(input)
  })

  it('uses a fresh ephemeral key and nonce for every box', async () => {
    const agent = await generateSealingKeyPair()
    const [a, b] = await Promise.all([sealTo(agent.publicKey, bytes('same'), context), sealTo(agent.publicKey, bytes('same'), context)])
    expect(a.epk).not.toBe(b.epk)
    expect(a.ct).not.toBe(b.ct)
  })

  it('refuses a tampered ciphertext', async () => {
    const agent = await generateSealingKeyPair()
    const box = await sealTo(agent.publicKey, bytes('the hash file'), context)
    const ct = fromBase64Url(box.ct)
    ct[3] = ct[3]! ^ 0x01
    await expect(openSealed(agent.privateKeyText, agent.publicKey, { ...box, ct: toBase64Url(ct) }, context)).rejects.toThrow(SealingError)
    const epk = fromBase64Url(box.epk)
    epk[0] = epk[0]! ^ 0x01
    await expect(openSealed(agent.privateKeyText, agent.publicKey, { ...box, epk: toBase64Url(epk) }, context)).rejects.toThrow(
      SealingError,
    )
  })

  it('refuses another agent’s key and another context', async () => {
    const [agent, other] = await Promise.all([generateSealingKeyPair(), generateSealingKeyPair()])
    const box = await sealTo(agent.publicKey, bytes('the word list'), context)
    await expect(openSealed(other.privateKeyText, other.publicKey, box, context)).rejects.toThrow(SealingError)
    await expect(openSealed(agent.privateKeyText, agent.publicKey, box, { ...context, agentId: 'agent-2' })).rejects.toThrow(SealingError)
    await expect(openSealed(agent.privateKeyText, agent.publicKey, box, { ...context, company: 'other' })).rejects.toThrow(SealingError)
    expect(new TextDecoder().decode(await openSealed(agent.privateKeyText, agent.publicKey, box, context))).toBe('the word list')
  })
})
