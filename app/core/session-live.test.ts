// @vitest-environment happy-dom
// (A browser: the client boot keeps its state only where there is a window.)
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { Session } from './session'
import type { Workspace } from './workspace'

// The SDK's token listener, driven by the test.
let tokenChanged: ((user: unknown) => Promise<void>) | undefined
vi.mock('firebase/auth', () => ({
  onIdTokenChanged: (_auth: unknown, next: (user: unknown) => Promise<void>) => {
    tokenChanged = next
    return () => {}
  },
  signOut: () => Promise.resolve(),
}))
// The listener of the person's own access, driven by the test.
let accessChanged: ((snapshot: { data(): unknown }) => Promise<void>) | undefined
vi.mock('firebase/firestore', () => ({
  doc: () => null,
  onSnapshot: (_ref: unknown, next: (snapshot: { data(): unknown }) => Promise<void>) => {
    accessChanged = next
    return () => {}
  },
}))
vi.mock('./firebase', () => ({ firestore: () => ({}), firebaseAuth: () => ({ currentUser: { uid: 'u1' } }) }))
// What the edge answers to the hand-over.
const edgeAnswer = vi.fn<() => Promise<{ session: Session; workspace: Workspace | null }>>()
vi.mock('./session.functions', () => ({ startSession: () => edgeAnswer(), endSession: () => Promise.resolve() }))

const { clientBoot } = await import('./client-boot')
const { watchSession } = await import('./session-live')

const session: Session = { uid: 'u1', email: 'viewer@acme.example', userType: 'client', accessLevel: LEVEL.clientViewer }
const workspace = (displayName: string): Workspace => ({
  access: { accessLevel: 1, userType: 'client', servicesEnabled: ['dast'], servicesManaged: [] },
  preferences: { defaultCompany: null, displayName, photoURL: '' },
  companies: [],
  company: null,
})
// The edge rendered the page with a token issued at 10:00; the browser's token is a later one unless a test says otherwise.
const EDGE_TOKEN_ISSUED = '2026-11-28T10:00:00Z'
const user = (token: string, issuedAtTime = '2026-11-28T10:50:00Z') => ({
  uid: 'u1',
  refreshToken: 'refresh',
  getIdToken: () => Promise.resolve(token),
  getIdTokenResult: () => Promise.resolve({ token, authTime: '2026-11-28T09:00:00Z', issuedAtTime }),
})

// The page was rendered by the edge for this person, with this workspace.
clientBoot.init({
  session,
  workspace: workspace('Avery'),
  firebase: { projectId: 'demo-sectest', apiKey: 'k', authDomain: 'd', emulators: null },
  tokenIssuedAt: Date.parse(EDGE_TOKEN_ISSUED) / 1000,
})

beforeEach(() => edgeAnswer.mockReset())

describe('watchSession', () => {
  it('hands nothing over on a page load when the edge rendered with this very token', async () => {
    const onChange = vi.fn()
    watchSession(onChange)
    await tokenChanged!(user('token-0', EDGE_TOKEN_ISSUED))
    expect(edgeAnswer).not.toHaveBeenCalled()
    // The next token is the edge's to have.
    edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery') })
    await tokenChanged!(user('token-0b', '2026-11-28T10:55:00Z'))
    expect(edgeAnswer).toHaveBeenCalledTimes(1)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('runs nothing again when the edge answers the hand-over with what the page shows', async () => {
    const onChange = vi.fn()
    watchSession(onChange)
    edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery') })
    await tokenChanged!(user('token-1'))
    expect(edgeAnswer).toHaveBeenCalledTimes(1)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('tells the page when the hand-over brings another workspace', async () => {
    const onChange = vi.fn()
    watchSession(onChange)
    edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery Stone') })
    await tokenChanged!(user('token-2'))
    expect(onChange).toHaveBeenCalledWith(session)
    expect(clientBoot.current().workspace?.preferences.displayName).toBe('Avery Stone')
  })

  it('tells the page when what it shows changed while the edge answered', async () => {
    const onChange = vi.fn()
    watchSession(onChange)
    let answer: (value: { session: Session; workspace: Workspace | null }) => void = () => {}
    edgeAnswer.mockReturnValue(new Promise((resolve) => (answer = resolve)))
    const handedOver = tokenChanged!(user('token-3'))
    await vi.waitFor(() => expect(edgeAnswer).toHaveBeenCalled())
    // A listener showed a newer workspace meanwhile; the edge had read the one before.
    clientBoot.setWorkspace(workspace('Avery Live'))
    answer({ session, workspace: workspace('Avery Stone') })
    await handedOver
    expect(onChange).toHaveBeenCalledWith(session)
  })

  it('after a change of access, takes tokens until one is issued after the sync, though they tell only the second', async () => {
    vi.useFakeTimers()
    try {
      watchSession(() => {})
      edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery') })
      // The server hands out the same token within one second; the sync came a third into it.
      const issued = ['2026-11-28T10:50:00Z', '2026-11-28T10:50:01Z']
      const getIdTokenResult = vi.fn((forceRefresh?: boolean) => {
        const issuedAtTime = forceRefresh ? issued.shift()! : '2026-11-28T10:49:00Z'
        return Promise.resolve({ token: 'token-5', authTime: '2026-11-28T09:00:00Z', issuedAtTime })
      })
      await tokenChanged!({ ...user('token-5'), getIdTokenResult })
      const changed = accessChanged!({ data: () => ({ claims: { synced: Date.parse('2026-11-28T10:50:00.312Z') } }) })
      await vi.advanceTimersByTimeAsync(0)
      expect(getIdTokenResult.mock.calls.filter(([force]) => force)).toHaveLength(1)
      // The same second's token is older than the sync: the next is asked for once the second has turned.
      await vi.advanceTimersByTimeAsync(1000)
      await changed
      expect(getIdTokenResult.mock.calls.filter(([force]) => force)).toHaveLength(2)
      expect(issued).toEqual([])
      // The token now taken is newer than the sync: no more are asked for.
      await vi.advanceTimersByTimeAsync(5000)
      expect(getIdTokenResult.mock.calls.filter(([force]) => force)).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('asks for no more tokens once the page stopped watching', async () => {
    vi.useFakeTimers()
    try {
      const stop = watchSession(() => {})
      edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery') })
      const getIdTokenResult = vi.fn((forceRefresh?: boolean) =>
        Promise.resolve({
          token: 'token-6',
          authTime: '2026-11-28T09:00:00Z',
          issuedAtTime: forceRefresh ? '2026-11-28T10:50:00Z' : '2026-11-28T10:49:00Z',
        }),
      )
      await tokenChanged!({ ...user('token-6'), getIdTokenResult })
      void accessChanged!({ data: () => ({ claims: { synced: Date.parse('2026-11-28T10:50:00.312Z') } }) })
      await vi.advanceTimersByTimeAsync(0)
      expect(getIdTokenResult.mock.calls.filter(([force]) => force)).toHaveLength(1)
      stop()
      await vi.advanceTimersByTimeAsync(5000)
      expect(getIdTokenResult.mock.calls.filter(([force]) => force)).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })

  // Last: it changes who the page shows.
  it('hands over the token of someone who signed in after the page was rendered, whenever it was issued', async () => {
    clientBoot.setSession({ ...session, uid: 'u2' })
    clientBoot.setSession(session)
    const onChange = vi.fn()
    watchSession(onChange)
    edgeAnswer.mockResolvedValue({ session, workspace: workspace('Avery') })
    await tokenChanged!(user('token-9', EDGE_TOKEN_ISSUED))
    expect(edgeAnswer).toHaveBeenCalledTimes(1)
  })
})
