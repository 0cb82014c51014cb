// @vitest-environment happy-dom
// The administration hub's latest changes name each change's company as the reader knows it.
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { auditEventFromDocument, newAuditEventDocument } from '#domain/audit-events.ts'
import { companyFromDocument } from '#domain/companies.ts'
import type { Watch } from '~/core/live-data'
import { companyDocument } from '../../../../tests/builders.ts'

const event = (id: string, companyId: string) =>
  auditEventFromDocument(
    id,
    newAuditEventDocument(
      {
        actor: { uid: 'a1', email: 'admin@acme.example' },
        action: 'company.updated',
        target: { kind: 'company', id: companyId, label: 'Scan scope' },
        companyId,
        before: null,
        after: { dast: true },
      },
      null,
    ),
  )!

vi.mock('./admin-hub-live', () => ({
  watchAuditEvents: (): Watch<unknown> => (next) => {
    next({ items: [event('e1', 'umbrella'), event('e2', 'elsewhere')], more: false })
    return () => {}
  },
  watchPeopleCount: (): Watch<number> => () => () => {},
  watchExpiringKeys: (() => () => {}) as Watch<number>,
}))

const { AdminHub } = await import('./admin-hub')

const [acme, umbrella] = (['acme', 'umbrella'] as const).map((slug) =>
  companyFromDocument(slug, companyDocument(slug, { companyName: slug === 'acme' ? 'Acme Corporation' : 'Umbrella Holdings' }))!,
)

afterEach(cleanup)

describe('the latest changes of the administration hub', () => {
  it('names the company of each change, and keeps the id of one the reader does not know', async () => {
    const router = createRouter({
      routeTree: createRootRoute({
        component: () => (
          <AdminHub access={{ userType: 'client', accessLevel: LEVEL.companyAdmin }} company={umbrella} companies={[acme!, umbrella!]} />
        ),
      }),
      history: createMemoryHistory({ initialEntries: ['/'] }),
    })
    render(<RouterProvider router={router} />)
    const changes = await screen.findByRole('list', { name: 'Latest changes' })
    const [first, second] = within(changes).getAllByRole('listitem')
    expect(first).toHaveTextContent('· Umbrella Holdings')
    expect(first).not.toHaveTextContent('· umbrella')
    expect(second).toHaveTextContent('· elsewhere')
  })
})
