import { describe, expect, it } from 'vitest'
import type { Session } from '~/core/session'
import { FirestoreReadDenied, type Plain } from './firestore-rest'
import type { FirestoreReader } from './firestore-rest.server'
import { createCompanyHints, readWorkspace } from './workspace-read.server'

type Doc = { [key: string]: Plain }

const viewer: Session = { uid: 'u1', email: 'viewer@acme.example', userType: 'client', accessLevel: 1 }
const senior: Session = { uid: 'u1', email: 'senior@sectest.example', userType: 'analyst', accessLevel: 7 }

const company = (slug: string, companyName: string): Doc => ({ companyName, dast: true })

/** The documents the user's token may read, and what each visit asked the store for. */
function store(documents: Record<string, Doc>, denied: string[] = []) {
  const calls: string[][] = []
  const readable = (path: string) => {
    if (denied.includes(path)) throw new FirestoreReadDenied(path)
    return documents[path] ?? null
  }
  const reader: FirestoreReader = {
    async get(path) {
      calls.push([path])
      return readable(path)
    },
    async getAll(paths) {
      calls.push([...paths])
      return paths.map(readable)
    },
    async list(collection) {
      calls.push([`list ${collection}`])
      return Object.entries(documents)
        .filter(([path]) => path.startsWith(`${collection}/`))
        .map(([path, data]) => ({ id: path.slice(collection.length + 1), data }))
    },
  }
  return { documents, calls, reader }
}

const clientDocuments = (): Record<string, Doc> => ({
  'users_access/u1': { claims: { accessLevel: 2, userType: 'client' }, companies: ['acme', 'globex'] },
  'users_preferences/u1': { defaultCompany: 'globex' },
  'companies/acme': company('acme', 'Acme'),
  'companies/globex': company('globex', 'Globex'),
  'companies/initech': company('initech', 'Initech'),
})

describe('the workspace read at the edge', () => {
  it('reads access and preferences together, then the companies; the next visit reads all of it in one round trip', async () => {
    const { calls, reader } = store(clientDocuments())
    const hints = createCompanyHints()
    const first = await readWorkspace(reader, viewer, hints)
    expect(first?.companies.map((c) => c.slug)).toEqual(['acme', 'globex'])
    expect(first?.company?.slug).toBe('globex')
    expect(calls).toEqual([['users_access/u1', 'users_preferences/u1'], ['companies/acme'], ['companies/globex']])

    calls.length = 0
    expect(await readWorkspace(reader, viewer, hints)).toEqual(first)
    expect(calls).toEqual([['users_access/u1', 'users_preferences/u1', 'companies/acme', 'companies/globex']])
  })

  it('shows what this visit read, not what the last one did: a company granted since, a preference changed since', async () => {
    const { documents, calls, reader } = store(clientDocuments())
    const hints = createCompanyHints()
    await readWorkspace(reader, viewer, hints)
    documents['users_access/u1'] = { claims: { accessLevel: 2, userType: 'client' }, companies: ['acme', 'initech'] }
    documents['users_preferences/u1'] = { defaultCompany: 'initech' }
    calls.length = 0
    const workspace = await readWorkspace(reader, viewer, hints)
    expect(workspace?.companies.map((c) => c.slug)).toEqual(['acme', 'initech'])
    expect(workspace?.company?.slug).toBe('initech')
    expect(calls).toEqual([['users_access/u1', 'users_preferences/u1', 'companies/acme', 'companies/globex'], ['companies/initech']])
  })

  it('a company the rules now refuse, guessed from the last visit, does not cost the person their workspace', async () => {
    const { documents, reader } = store(clientDocuments())
    const hints = createCompanyHints()
    await readWorkspace(reader, viewer, hints)
    documents['users_access/u1'] = { claims: { accessLevel: 2, userType: 'client' }, companies: ['acme'] }
    const denied = store(documents, ['companies/globex'])
    const workspace = await readWorkspace(denied.reader, viewer, hints)
    expect(workspace?.companies.map((c) => c.slug)).toEqual(['acme'])
    expect(workspace?.company?.slug).toBe('acme')
    expect(denied.calls[0]).toEqual(['users_access/u1', 'users_preferences/u1', 'companies/acme', 'companies/globex'])
  })

  it('a refusal of the person’s own documents is no workspace: the sign-in was revoked since the edge checked it', async () => {
    const { reader } = store(clientDocuments(), ['users_preferences/u1'])
    expect(await readWorkspace(reader, viewer, createCompanyHints())).toBeNull()
    // Also when the batch was refused for a guessed company and the own documents are read alone.
    const hints = createCompanyHints()
    hints.set('u1', ['acme'])
    expect(await readWorkspace(store(clientDocuments(), ['users_preferences/u1', 'companies/acme']).reader, viewer, hints)).toBeNull()
  })

  it('a failure other than a refusal still fails the read', async () => {
    const failing: FirestoreReader = { ...store(clientDocuments()).reader, getAll: async () => Promise.reject(new Error('unreachable')) }
    await expect(readWorkspace(failing, viewer, createCompanyHints())).rejects.toThrow('unreachable')
  })

  it('no users_access is no company, whatever the last visit saw', async () => {
    const { documents, reader } = store(clientDocuments())
    const hints = createCompanyHints()
    await readWorkspace(reader, viewer, hints)
    delete documents['users_access/u1']
    const workspace = await readWorkspace(reader, viewer, hints)
    expect(workspace?.companies).toEqual([])
    expect(workspace?.company).toBeNull()
    expect(workspace?.access.accessLevel).toBeNull()
  })

  it('someone who sees every company lists them alongside their own documents from the second visit on', async () => {
    const documents = clientDocuments()
    documents['users_access/u1'] = { claims: { accessLevel: 7, userType: 'analyst' }, companies: [] }
    const { calls, reader } = store(documents)
    const hints = createCompanyHints()
    const first = await readWorkspace(reader, senior, hints)
    expect(first?.companies.map((c) => c.slug)).toEqual(['acme', 'globex', 'initech'])
    expect(calls).toEqual([['users_access/u1', 'users_preferences/u1'], ['list companies']])

    calls.length = 0
    expect(await readWorkspace(reader, senior, hints)).toEqual(first)
    expect(calls).toEqual([['list companies'], ['users_access/u1', 'users_preferences/u1']])

    // Demoted since: the list read alongside is not shown.
    documents['users_access/u1'] = { claims: { accessLevel: 5, userType: 'analyst' }, companies: ['acme'] }
    const demoted = await readWorkspace(reader, { ...senior, accessLevel: 5 }, hints)
    expect(demoted?.companies.map((c) => c.slug)).toEqual(['acme'])
  })

  it('a refused company list is no company', async () => {
    const documents = clientDocuments()
    documents['users_access/u1'] = { claims: { accessLevel: 7, userType: 'analyst' }, companies: [] }
    const { reader } = store(documents)
    const refused: FirestoreReader = { ...reader, list: async (collection) => Promise.reject(new FirestoreReadDenied(collection)) }
    const hints = createCompanyHints()
    expect((await readWorkspace(refused, senior, hints))?.companies).toEqual([])
    // Also when the list was started alongside, from the last visit.
    expect((await readWorkspace(refused, senior, hints))?.company).toBeNull()
  })

  it('keeps at most the configured number of people', () => {
    const hints = createCompanyHints(2)
    hints.set('a', ['acme'])
    hints.set('b', 'all')
    hints.set('c', [])
    expect(hints.get('a')).toBeUndefined()
    expect(hints.get('b')).toBe('all')
    expect(hints.get('c')).toEqual([])
  })
})
