import { describe, expect, it } from 'vitest'
import { judgeWebhookUrl, webhookEgressPolicy, type Resolve } from './egress.ts'

const resolving =
  (answers: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = answers[host]
    if (!found) throw new Error('ENOTFOUND')
    return found
  }

const production = { allowLoopback: false }
const local = { allowLoopback: true }

describe('judgeWebhookUrl', () => {
  it('sends to a public address, pinned to what the name resolved to', async () => {
    const verdict = await judgeWebhookUrl('https://hooks.example.com/in', production, resolving({ 'hooks.example.com': ['93.184.215.14'] }))
    expect(verdict).toMatchObject({ address: '93.184.215.14' })
  })

  it.each([
    ['a private address', 'https://10.1.2.3/in', {}],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/', {}],
    ['loopback', 'https://127.0.0.1:8443/', {}],
    ['IPv6 loopback', 'https://[::1]/', {}],
    ['IPv4-mapped private', 'https://[::ffff:192.168.1.1]/', {}],
    ['a name resolving to private', 'https://internal.example.com/', { 'internal.example.com': ['93.184.215.14', '172.16.0.5'] }],
    ['a name resolving to metadata', 'https://meta.example.com/', { 'meta.example.com': ['169.254.169.254'] }],
    ['localhost', 'https://localhost/', {}],
  ])('refuses %s', async (_what, url, answers) => {
    const verdict = await judgeWebhookUrl(url, production, resolving(answers))
    expect(verdict).toHaveProperty('refusal')
    expect((verdict as { refusal: string }).refusal).toMatch(/address \(.+\): webhooks go to public addresses only/)
  })

  it('refuses a name that does not resolve, and plain http to a public address', async () => {
    expect(await judgeWebhookUrl('https://nowhere.example/', production, resolving({}))).toEqual({
      refusal: 'nowhere.example does not resolve',
    })
    expect(await judgeWebhookUrl('http://hooks.example.com/', local, resolving({ 'hooks.example.com': ['93.184.215.14'] }))).toEqual({
      refusal: 'Webhooks are sent over https only',
    })
  })

  it("lets the local stack's receivers on loopback through, http too, and nothing else private", async () => {
    expect(await judgeWebhookUrl('http://127.0.0.1:4567/hook', local, resolving({}))).toMatchObject({ address: '127.0.0.1' })
    expect(await judgeWebhookUrl('http://localhost:4567/hook', local, resolving({}))).toMatchObject({ address: '127.0.0.1' })
    expect(await judgeWebhookUrl('https://10.0.0.1/', local, resolving({}))).toHaveProperty('refusal')
  })
})

describe('webhookEgressPolicy', () => {
  it('allows loopback only when asked, and only in a demo- project', () => {
    expect(webhookEgressPolicy({ WEBHOOK_ALLOW_LOOPBACK: 'true', GCLOUD_PROJECT: 'demo-sectest' })).toEqual({ allowLoopback: true })
    expect(webhookEgressPolicy({ WEBHOOK_ALLOW_LOOPBACK: 'true', GCLOUD_PROJECT: 'bulwark-prod' })).toEqual({ allowLoopback: false })
    expect(webhookEgressPolicy({ GCLOUD_PROJECT: 'demo-sectest' })).toEqual({ allowLoopback: false })
    expect(webhookEgressPolicy({ WEBHOOK_ALLOW_LOOPBACK: 'true', FIREBASE_CONFIG: JSON.stringify({ projectId: 'demo-sectest' }) })).toEqual(
      { allowLoopback: true },
    )
  })
})
