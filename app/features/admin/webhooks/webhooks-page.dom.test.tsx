// @vitest-environment happy-dom
// The webhooks page: waiting for the endpoints, then its empty state, and a failed listener said;
// an endpoint registered from the keyboard with its events is asked for as the contract says and
// its secret shown once; a plain-http address elsewhere is refused before anything is sent; an
// endpoint is disabled, its secret rotated through a dialog, its deliveries listed with the
// latest answer and sent again.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Company } from '#domain/companies.ts'
import type { WebhookDelivery, WebhookEndpoint } from '#domain/webhooks.ts'
import type { Watch } from '~/core/live-data'
import type { Paged } from '~/core/watch-query'
import type { Workspace } from '~/core/workspace'

const listeners = vi.hoisted(() => ({
  endpoints: null as ((endpoints: WebhookEndpoint[]) => void) | null,
  endpointsFail: null as ((error: Error) => void) | null,
  deliveries: null as ((page: Paged<WebhookDelivery>) => void) | null,
}))
vi.mock('./webhooks-live', () => ({
  watchWebhookEndpoints: (): Watch<WebhookEndpoint[]> => (next, fail) => {
    listeners.endpoints = next
    listeners.endpointsFail = fail
    return () => {}
  },
  watchWebhookDeliveries: (): Watch<Paged<WebhookDelivery>> => (next) => {
    listeners.deliveries = next
    return () => {}
  },
}))
const SECRET = `whsec_${'Q'.repeat(43)}=`
const calls = vi.hoisted(() => [] as { name: string; data: unknown }[])
vi.mock('~/core/call', () => ({
  call: async (name: string, data: unknown) => {
    calls.push({ name, data })
    if (name === 'createWebhookEndpoint') return { id: 'A'.repeat(16), secret: `whsec_${'Q'.repeat(43)}=` }
    if (name === 'rotateWebhookSecret') return { secret: `whsec_${'R'.repeat(43)}=` }
    return { changed: true }
  },
}))

const { WebhooksPage } = await import('./webhooks-page')

afterEach(() => {
  cleanup()
  listeners.endpoints = null
  listeners.deliveries = null
  calls.length = 0
})

const workspace = { company: { slug: 'acme', companyName: 'Acme' } as Company } as Workspace
const NOW = Date.now()
const URL_ = 'https://hooks.acme.example/bulwark'
const endpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'B'.repeat(16),
  company: 'acme',
  url: URL_,
  events: ['finding.new', 'sla.breached'],
  enabled: true,
  createdAt: NOW - 86_400_000,
  createdBy: 'admin@acme.example',
  secretRotatedAt: null,
  ...overrides,
})
const delivery: WebhookDelivery = {
  id: `${'B'.repeat(16)}_evt_${'C'.repeat(24)}`,
  company: 'acme',
  endpointId: 'B'.repeat(16),
  eventId: `evt_${'C'.repeat(24)}`,
  type: 'sla.breached',
  body: '{}',
  state: 'failed',
  createdAt: NOW - 3_600_000,
  attempt: 5,
  maxAttempts: 5,
  nextAttemptAt: null,
  attempts: [{ n: 5, at: NOW - 60_000, status: 503, durationMs: 41, answer: 'upstream down', error: null }],
  note: null,
}

describe('WebhooksPage', () => {
  it('says it is loading the endpoints, then that there are none, or that they could not be read', async () => {
    render(<WebhooksPage workspace={workspace} />)
    expect(await screen.findByText(/the webhook endpoints/i)).toBeVisible()
    await vi.waitFor(() => expect(listeners.endpoints).not.toBeNull())
    await act(async () => listeners.endpoints!([]))
    expect(screen.getByText('No webhook endpoints yet.')).toBeVisible()
    await act(async () => listeners.endpointsFail!(Object.assign(new Error('denied'), { code: 'permission-denied' })))
    expect(screen.queryByText('No webhook endpoints yet.')).toBeNull()
    expect(screen.getByText(/The webhook endpoints could not be loaded/)).toBeVisible()
  })

  it('registers an endpoint from the keyboard with the events ticked and shows its secret once', async () => {
    render(<WebhooksPage workspace={workspace} />)
    const form = screen.getByRole('form', { name: 'New webhook endpoint' })
    await userEvent.click(within(form).getByLabelText('Endpoint URL (https)'))
    await userEvent.keyboard(URL_)
    expect(within(form).getByRole('checkbox', { name: /A new finding is published/ })).toBeChecked()
    within(form)
      .getByRole('checkbox', { name: /A finding breaches its SLA/ })
      .focus()
    await userEvent.keyboard(' ')
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(calls).toEqual([
      {
        name: 'createWebhookEndpoint',
        data: { company: 'acme', url: URL_, events: ['finding.new', 'finding.status_changed', 'sla.breached'] },
      },
    ])
    const dialog = await screen.findByRole('dialog', { name: 'Copy your signing secret now' })
    expect(within(dialog).getByLabelText('signing secret')).toHaveValue(SECRET)
    await userEvent.click(within(dialog).getByRole('button', { name: 'I have stored the secret' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('refuses plain http to another host before asking the server', async () => {
    render(<WebhooksPage workspace={workspace} />)
    const form = screen.getByRole('form', { name: 'New webhook endpoint' })
    await userEvent.type(within(form).getByLabelText('Endpoint URL (https)'), 'http://hooks.acme.example/in')
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(form).findByText(/starts with https:\/\//)).toBeVisible()
    expect(calls).toEqual([])
  })

  it('disables an endpoint, rotates its secret, and lists its deliveries with "Send again"', async () => {
    render(<WebhooksPage workspace={workspace} />)
    await vi.waitFor(() => expect(listeners.endpoints).not.toBeNull())
    await act(async () => listeners.endpoints!([endpoint()]))
    const row = within(screen.getByRole('table', { name: 'Webhook endpoints' })).getByRole('row', { name: new RegExp(URL_) })
    expect(row).toHaveTextContent('finding.new, sla.breached')
    expect(row).toHaveTextContent('Enabled')

    await userEvent.click(within(row).getByRole('button', { name: `Disable ${URL_}` }))
    expect(calls.at(-1)).toEqual({ name: 'setWebhookEndpointEnabled', data: { id: 'B'.repeat(16), enabled: false } })

    await userEvent.click(within(row).getByRole('button', { name: `Rotate the secret of ${URL_}` }))
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }))
    const shown = await screen.findByRole('dialog', { name: 'Copy your signing secret now' })
    expect(within(shown).getByLabelText('signing secret')).toHaveValue(`whsec_${'R'.repeat(43)}=`)
    await userEvent.click(within(shown).getByRole('button', { name: 'I have stored the secret' }))

    await userEvent.click(within(row).getByRole('button', { name: `Deliveries to ${URL_}` }))
    expect(screen.getByRole('button', { name: `Deliveries to ${URL_}` })).toHaveAttribute('aria-pressed', 'true')
    await vi.waitFor(() => expect(listeners.deliveries).not.toBeNull())
    await act(async () => listeners.deliveries!({ items: [delivery], more: null, loading: false }))
    const logged = within(screen.getByRole('table', { name: 'Deliveries' })).getByRole('row', { name: /sla\.breached/ })
    expect(logged).toHaveTextContent('Failed')
    expect(logged).toHaveTextContent('503')
    expect(logged).toHaveTextContent('41 ms')
    expect(logged).toHaveTextContent('upstream down')
    await userEvent.click(within(logged).getByRole('button', { name: /^Send sla\.breached of .* again$/ }))
    expect(calls.at(-1)).toEqual({ name: 'resendWebhookDelivery', data: { id: delivery.id } })
  })
})
