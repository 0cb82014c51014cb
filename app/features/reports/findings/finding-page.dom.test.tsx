// @vitest-environment happy-dom
// A finding opened from its address that this company's report does not hold (another company's,
// or none): Firestore's rules refuse the read, and the page says so, with no retry that cannot help.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyFromDocument } from '#domain/companies.ts'
import { readPreferences } from '#domain/users-preferences.ts'
import type { Watch } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { companyDocument } from '../../../../tests/builders.ts'

// The finding listener, driven by the test; the page's other parts wait.
const finding = vi.hoisted(() => ({ next: (_: unknown) => {}, fail: (_: Error) => {} }))
vi.mock('./findings-live', () => {
  const waiting = (): Watch<unknown> => () => () => {}
  return {
    watchFinding: (): Watch<unknown> => (next, fail) => {
      finding.next = next
      finding.fail = fail
      return () => {}
    },
    watchFindingHistory: waiting,
    watchFindingComments: waiting,
    watchOccurrences: waiting,
    watchFindingRetests: waiting,
  }
})

const { FindingPage } = await import('./finding-page')

const acme = companyFromDocument('acme', companyDocument('acme', { companyName: 'Acme Corporation' }))!
// One who sees every company's results: the page's own check lets them in, the rules decide the rest.
const workspace: Workspace = {
  access: { userType: 'analyst', accessLevel: LEVEL.seniorAnalyst },
  preferences: readPreferences(undefined),
  companies: [acme],
  company: acme,
}

function renderPage() {
  const router = createRouter({
    routeTree: createRootRoute({
      component: () => <FindingPage workspace={workspace} service="dast" findingId="globex-finding" backHref="/reports/dast" />,
    }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

afterEach(cleanup)

/** Firestore's refusal, as the SDK reports it. */
const refusal = () => Object.assign(new Error('Missing or insufficient permissions.'), { code: 'permission-denied' })

describe('a finding this company’s report does not hold', () => {
  it('says there is no such finding here, or it is not theirs, when the rules refuse the read, with no retry', async () => {
    renderPage()
    await screen.findByText('Loading the finding…')
    act(() => finding.fail(refusal()))
    expect(await screen.findByRole('heading', { name: 'Finding not found' })).toBeVisible()
    expect(screen.getByText(/no such finding in Acme Corporation.s report, or it is not one you may open/)).toBeVisible()
    expect(screen.queryByText(/Check your connection/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it('says the same when the server answers that there is none', async () => {
    renderPage()
    await screen.findByText('Loading the finding…')
    act(() => finding.next(null))
    expect(await screen.findByRole('heading', { name: 'Finding not found' })).toBeVisible()
  })

  it('still offers a retry when the read failed for another reason (the connection)', async () => {
    renderPage()
    await screen.findByText('Loading the finding…')
    act(() => finding.fail(Object.assign(new Error('Failed to get document because the client is offline.'), { code: 'unavailable' })))
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeVisible()
    expect(screen.queryByRole('heading', { name: 'Finding not found' })).toBeNull()
  })
})
