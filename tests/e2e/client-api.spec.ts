// A company admin makes an API token on /admin/api-tokens and a tool reads Acme's findings with it
// through the app's origin, as the curl lines of docs/api.md do: a page of findings, one finding
// with its history, the OpenAPI document; the page then shows the token's last use, and once it
// is revoked the API refuses it. A token with findings:write requests a retest the same way, sent
// twice with one Idempotency-Key, and the finding has one retest request.
import { randomUUID } from 'node:crypto'
import { expect, test } from './fixtures'
import { ApiTokensPage } from './pages/api-tokens'
import { createFinding, deleteFindings } from './support/findings'

type Page = { data: { id: string; service: string }[]; nextCursor: string | null }

test.describe('the client API', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('a token lists findings with curl, reads one with its history, shows its last use and is refused once revoked', async ({
    page,
    baseURL,
  }) => {
    const tokens = new ApiTokensPage(page)
    await tokens.open()
    const name = `Tracker ${randomUUID().slice(0, 6)}`
    const token = await tokens.create(name, [/Read findings and scans/])
    expect(token).toMatch(/^bwk_api_[0-9A-Za-z]{62}$/)
    await expect(tokens.row(name)).toContainText('Never')

    const get = (path: string) => fetch(`${baseURL}${path}`, { headers: { Authorization: `Bearer ${token}` } })
    const listed = await get('/api/v1/findings?limit=3')
    const first = (await listed.json()) as Page
    expect(listed.status, JSON.stringify(first)).toBe(200)
    expect(first.data.length).toBeGreaterThan(0)
    expect(first.data.length).toBeLessThanOrEqual(3)
    const one = await get(`/api/v1/findings/${first.data[0]!.id}`)
    expect(one.status).toBe(200)
    expect(await one.json()).toMatchObject({ id: first.data[0]!.id, history: expect.any(Array) })
    const document = await fetch(`${baseURL}/api/v1/openapi.json`)
    expect(await document.json()).toMatchObject({ openapi: '3.1.0', paths: { '/findings': {}, '/findings/{id}': {}, '/scans': {} } })

    // The list follows the token's use live: when and from where.
    await expect(tokens.row(name)).not.toContainText('Never')

    await tokens.revoke(name)
    await expect(tokens.row(name)).toContainText('Revoked')
    const refused = await get('/api/v1/findings')
    expect(refused.status).toBe(401)
    expect(await refused.json()).toMatchObject({ error: { code: 'token_revoked' } })
  })

  test('a token with findings:write requests a retest through the app once, however often the call is sent', async ({ page, baseURL }) => {
    const id = await createFinding('acme', 'dast', { title: `API retest ${randomUUID().slice(0, 6)}` })
    try {
      const tokens = new ApiTokensPage(page)
      await tokens.open()
      const token = await tokens.create(`CI ${randomUUID().slice(0, 6)}`, [/Read findings and scans/, /Request retests/])
      const key = randomUUID()
      const retest = () =>
        fetch(`${baseURL}/api/v1/findings/${id}/retest`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify({ note: 'Fixed in release 4.2.' }),
        })
      const first = await retest()
      const made = (await first.json()) as { retestId: string; status: string }
      expect(first.status, JSON.stringify(made)).toBe(201)
      expect(made).toMatchObject({ findingId: id, status: 'retest_requested' })
      expect(first.headers.get('idempotent-replayed')).toBeNull()
      const again = await retest()
      expect(again.status).toBe(201)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(await again.json()).toEqual(made)

      const read = await fetch(`${baseURL}/api/v1/findings/${id}`, { headers: { Authorization: `Bearer ${token}` } })
      const finding = (await read.json()) as { status: string; retestId: string; history: { action: string }[] }
      expect(finding).toMatchObject({ status: 'retest_requested', retestId: made.retestId })
      expect(finding.history.map((h) => h.action)).toEqual(['request_retest'])
    } finally {
      await deleteFindings('acme', [id])
    }
  })
})
