// The agent talks to its server over https only: plain http is accepted for this host's loopback
// (the local stack and the tests), and any other address is refused before anything is sent.
import { describe, expect, it, vi } from 'vitest'
import { generateAgentKeyPair } from '#domain/agent-auth.ts'
import { AgentClient, enrol, serverBase } from './api-client.ts'

describe('serverBase', () => {
  it('accepts an https server, without its trailing slashes', () => {
    expect(serverBase('https://bulwark.example/api/agents/')).toBe('https://bulwark.example/api/agents')
    expect(serverBase('https://10.0.0.5:8443/api/agents')).toBe('https://10.0.0.5:8443/api/agents')
  })

  it('accepts plain http on the loopback only', () => {
    for (const url of ['http://127.0.0.1:3000/api/agents', 'http://127.8.9.10/', 'http://localhost:5173/api/agents', 'http://[::1]:8080'])
      expect(serverBase(url)).toBe(url.replace(/\/+$/, ''))
  })

  it('refuses plain http anywhere else, other schemes and what is not an address', () => {
    for (const url of [
      'http://bulwark.example/api/agents',
      'http://10.0.0.5/api/agents',
      'http://127.0.0.1.bulwark.example/',
      'http://localhost.bulwark.example/',
      'ftp://127.0.0.1/',
      'bulwark.example',
    ])
      expect(() => serverBase(url), url).toThrow(/https:\/\//)
  })
})

describe('the client', () => {
  it('sends nothing to a plain http server off the loopback', async () => {
    const fetcher = vi.fn<typeof fetch>()
    const { pair } = await generateAgentKeyPair()
    const request = { token: `bwk_enr_${'A'.repeat(43)}`, publicKey: pair.publicKey, hostname: 'h', version: '1', scanners: [] }
    await expect(enrol('http://bulwark.example/api/agents', request, fetcher)).rejects.toThrow(/https:\/\//)
    expect(() => new AgentClient('http://bulwark.example/api/agents', 'agent-1', pair.privateKey, fetcher)).toThrow(/https:\/\//)
    expect(fetcher).not.toHaveBeenCalled()
  })
})
