import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyFromDocument } from '#domain/companies.ts'
import { readPreferences } from '#domain/users-preferences.ts'
import { accessFromDocument, readUserAccess } from '#domain/users-access.ts'
import { companyDocument, tokenClaims, usersAccessDocument } from '../../tests/builders'
import type { Session } from './session'
import type { Workspace } from './workspace'

// The listeners' documents, delivered by the test: path -> the snapshot callback.
const listeners = new Map<string, (snapshot: unknown) => void>()

vi.mock('firebase/firestore', () => ({
  doc: (_db: unknown, path: string) => path,
  collection: (_db: unknown, path: string) => path,
  onSnapshot: (path: string, next: (snapshot: unknown) => void) => {
    listeners.set(path, next)
    return () => listeners.delete(path)
  },
  serverTimestamp: () => null,
  setDoc: () => Promise.resolve(),
}))
vi.mock('./firebase', () => ({ firestore: () => ({}), firebaseAuth: () => ({ currentUser: { uid: 'u1' } }) }))

const { watchWorkspace } = await import('./workspace-live')

const session: Session = { uid: 'u1', email: 'viewer@acme.example', userType: 'client', accessLevel: LEVEL.clientViewer }
const accessDoc = usersAccessDocument({ claims: tokenClaims(LEVEL.clientViewer), companies: ['acme'], servicesEnabled: ['dast'] })
const acmeDoc = companyDocument('acme', { companyName: 'Acme', enableDast: true })
const preferencesDoc = { displayName: 'Avery', defaultCompany: 'acme' }

const deliver = (path: string, data: unknown) =>
  listeners.get(path)!({ exists: () => data !== undefined, data: () => data, metadata: { fromCache: false } })

/** What the edge read for the first paint: the same documents. */
function seed(): Workspace {
  const acme = companyFromDocument('acme', acmeDoc)!
  return {
    access: accessFromDocument(readUserAccess(accessDoc), session),
    preferences: readPreferences(preferencesDoc),
    companies: [acme],
    company: acme,
  }
}

beforeEach(() => listeners.clear())

/** The page: it shows the edge's workspace, then each one published (as WorkspaceSync does). */
function page(first: Workspace | null) {
  let shown = first
  const onChange = vi.fn((workspace: Workspace) => (shown = workspace))
  return { onChange, onDenied: vi.fn(), shown: () => shown, show: (workspace: Workspace) => (shown = workspace) }
}

describe('watchWorkspace', () => {
  it('publishes nothing while the listeners repeat what the page was rendered with', () => {
    const { onChange, ...rest } = page(seed())
    watchWorkspace(session, seed(), { onChange, ...rest })
    deliver('users_access/u1', accessDoc)
    deliver('users_preferences/u1', preferencesDoc)
    deliver('companies/acme', acmeDoc)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('publishes each change once', () => {
    const { onChange, ...rest } = page(seed())
    watchWorkspace(session, seed(), { onChange, ...rest })
    deliver('users_access/u1', accessDoc)
    deliver('users_preferences/u1', preferencesDoc)
    deliver('companies/acme', acmeDoc)

    deliver('companies/acme', { ...acmeDoc, enableViewResultsNetwork: true })
    deliver('companies/acme', { ...acmeDoc, enableViewResultsNetwork: true })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect((onChange.mock.calls[0]![0] as Workspace).company?.enableViewResultsNetwork).toBe(true)

    deliver('users_preferences/u1', { ...preferencesDoc, displayName: 'Avery Stone' })
    expect(onChange).toHaveBeenCalledTimes(2)
    expect((onChange.mock.calls[1]![0] as Workspace).preferences.displayName).toBe('Avery Stone')
  })

  it('publishes the first workspace when the page had none', () => {
    const { onChange, ...rest } = page(null)
    watchWorkspace(session, null, { onChange, ...rest })
    deliver('users_access/u1', accessDoc)
    deliver('users_preferences/u1', preferencesDoc)
    deliver('companies/acme', acmeDoc)
    expect(onChange).toHaveBeenCalled()
    expect((onChange.mock.calls.at(-1)![0] as Workspace).company?.slug).toBe('acme')
  })

  it('publishes what the listeners say when the page shows something else, even the workspace it was rendered with', () => {
    // The edge rendered Acme with DAST; a session hand-over then showed it without, and DAST came
    // back before the listeners' first snapshots.
    const view = page(seed())
    watchWorkspace(session, seed(), view)
    const withoutDast = companyFromDocument('acme', { ...acmeDoc, enableDast: false })!
    view.show({ ...seed(), companies: [withoutDast], company: withoutDast })
    deliver('users_access/u1', accessDoc)
    deliver('users_preferences/u1', preferencesDoc)
    deliver('companies/acme', acmeDoc)
    expect(view.onChange).toHaveBeenCalledTimes(1)
    expect(view.shown()?.company?.enableDast).toBe(true)
  })
})
