// @vitest-environment happy-dom
// Exporting the library reads every template first, which takes a moment: the button pressed says
// it is exporting until the file is there, and neither export can be started twice meanwhile.
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { FindingTemplate } from '#domain/finding-template.ts'

// The library's read, answered when the test says.
const library = vi.hoisted(() => ({ answer: null as ((templates: FindingTemplate[]) => void) | null }))
vi.mock('./template-library-live', () => ({
  readWholeLibrary: () => new Promise<FindingTemplate[]>((resolve) => (library.answer = resolve)),
}))

const { LibraryTools } = await import('./library-tools')

function renderTools() {
  const router = createRouter({
    routeTree: createRootRoute({
      component: () => (
        <LibraryTools
          session={{ uid: 'u1', email: 'senior@sectest.example', userType: 'analyst', accessLevel: LEVEL.seniorAnalyst }}
          search={{}}
          onImported={() => {}}
        />
      ),
    }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return render(<RouterProvider router={router} />)
}

beforeEach(() => {
  URL.createObjectURL = () => 'blob:export'
  URL.revokeObjectURL = () => {}
})
afterEach(cleanup)

describe('exporting the template library', () => {
  it('says the export is on its way on the button pressed, and holds both until the file is made', async () => {
    const user = userEvent.setup()
    renderTools()
    await user.click(await screen.findByRole('button', { name: 'Export all (JSON)' }))
    const busy = await screen.findByRole('button', { name: 'Exporting (JSON)…' })
    expect(busy).toHaveAttribute('aria-busy', 'true')
    expect(busy).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Export all (CSV)' })).toBeDisabled()

    await vi.waitFor(() => expect(library.answer).not.toBeNull())
    await act(async () => library.answer!([]))
    expect(await screen.findByRole('button', { name: 'Export all (JSON)' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Export all (JSON)' })).toHaveAttribute('aria-busy', 'false')
    expect(screen.getByRole('button', { name: 'Export all (CSV)' })).toBeEnabled()
  })
})
