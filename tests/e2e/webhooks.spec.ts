// A company admin registers a webhook endpoint on /admin/webhooks, pointing at a receiver this test
// starts on loopback, and moves a finding on its page: the receiver gets the status change, signed
// with the secret the page showed once (Standard Webhooks); the delivery log shows it delivered
// with the receiver's answer; "Send again" sends the same message once more; the endpoint is deleted.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { verifyWebhook } from '#domain/webhooks.ts'
import { expect, test } from './fixtures'
import { FindingPage } from './pages/findings'
import { WebhooksPage } from './pages/webhooks'
import { createFinding, deleteFindings } from './support/findings'

interface Received {
  headers: http.IncomingHttpHeaders
  body: string
}

const verified = (secret: string, message: Received) =>
  verifyWebhook(
    secret,
    {
      id: String(message.headers['webhook-id']),
      timestamp: String(message.headers['webhook-timestamp']),
      signature: String(message.headers['webhook-signature']),
    },
    message.body,
    Math.floor(Date.now() / 1000),
  )

test.describe('webhooks', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('a registered endpoint gets a signed delivery for a status change, listed in its log and sent again on request', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    const received: Received[] = []
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
        response.writeHead(202, { 'content-type': 'text/plain' }).end('queued by the receiver')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${randomUUID().slice(0, 6)}`
    const id = await createFinding('acme', 'dast', { title: `Webhook ${randomUUID().slice(0, 6)}` })
    const webhooks = new WebhooksPage(page)
    try {
      await webhooks.open()
      const secret = await webhooks.register(url, [/A finding changes status/])
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      await expect(webhooks.row(url)).toContainText('Enabled')
      await expect(webhooks.row(url)).toContainText('finding.status_changed')

      const finding = new FindingPage(page)
      await finding.open('dast', id)
      await finding.move('Start remediation')
      await expect(finding.status()).toHaveText('In remediation')

      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1)
      const [message] = received
      expect(await verified(secret, message!)).toBe(true)
      expect(JSON.parse(message!.body)).toMatchObject({
        type: 'finding.status_changed',
        data: { company: 'acme', service: 'dast', findingId: id, from: 'open', to: 'in_remediation' },
      })

      await webhooks.open()
      await webhooks.showDeliveries(url)
      const row = webhooks.deliveries.getByRole('row').filter({ hasText: 'finding.status_changed' })
      await expect(row).toContainText('Delivered')
      await expect(row).toContainText('202')
      await row.getByText(/First 1024 bytes/).click()
      await expect(row).toContainText('queued by the receiver')

      await row.getByRole('button', { name: /^Send finding.status_changed of .* again$/ }).click()
      await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2)
      expect(received[1]!.headers['webhook-id']).toBe(message!.headers['webhook-id'])
      expect(await verified(secret, received[1]!)).toBe(true)
      await expect(row.getByRole('cell').nth(3)).toHaveText('2')

      await webhooks.remove(url)
      await expect(webhooks.row(url)).toHaveCount(0)
    } finally {
      await deleteFindings('acme', [id])
      await new Promise((resolve) => receiver.close(resolve))
    }
  })
})
