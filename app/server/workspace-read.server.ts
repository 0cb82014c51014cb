// The signed-in person's workspace as the edge reads it through Firestore REST; no Worker bindings,
// so the emulator tests run it against the real rules.
import { seesAllCompanies } from '#domain/access.ts'
import { COMPANIES_COLLECTION, companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { readPreferences, userPreferencesPath } from '#domain/users-preferences.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { FirestoreReadDenied, type Plain } from './firestore-rest'
import type { FirestoreReader } from './firestore-rest.server'

const byName = (a: Company, b: Company) => a.companyName.localeCompare(b.companyName)

type Doc = { [key: string]: Plain } | null

/**
 * Which companies each person's workspace held when this isolate last read it: a guess of what to
 * read together with their access, never something shown. What is shown always comes from this
 * request's reads (decision 0023).
 */
export function createCompanyHints(maxEntries = 5_000) {
  const hints = new Map<string, readonly string[] | 'all'>()
  return {
    get: (uid: string) => hints.get(uid),
    set(uid: string, hint: readonly string[] | 'all') {
      hints.delete(uid)
      hints.set(uid, hint)
      if (hints.size > maxEntries) hints.delete(hints.keys().next().value as string)
    },
  }
}

/**
 * One round trip when the guess holds: users_access, users_preferences and the companies this
 * person had last time are read together; anything the guess missed is read after. Null when the
 * rules refuse the person their own documents: the sign-in was revoked since the edge checked it.
 */
export async function readWorkspace(
  reader: FirestoreReader,
  session: Session,
  hints: ReturnType<typeof createCompanyHints>,
): Promise<Workspace | null> {
  const hint = hints.get(session.uid)
  const guessed = Array.isArray(hint) ? hint : []
  // Started alongside, and used only if users_access still says every company.
  const listed = hint === 'all' ? settle(reader.list(COMPANIES_COLLECTION)) : null
  const paths = [userAccessPath(session.uid), userPreferencesPath(session.uid), ...guessed.map(companyPath)]
  let read: (Doc | undefined)[]
  try {
    read = await reader.getAll(paths).catch(async (error: unknown) => {
      // A company the person no longer has refuses the whole batch: read their own documents alone.
      if (!(error instanceof FirestoreReadDenied) || guessed.length === 0) throw error
      return [...(await Promise.all([reader.get(paths[0]!), reader.get(paths[1]!)])), ...guessed.map(() => undefined)]
    })
  } catch (error) {
    if (error instanceof FirestoreReadDenied) return null
    throw error
  }
  const [accessDoc, preferencesDoc, ...guessedDocs] = read
  // No users_access is no access: the token's level counts for nothing without it.
  const accessData = accessDoc ? readUserAccess(accessDoc) : null
  const access = accessFromDocument(accessData, session)
  const preferences = readPreferences(preferencesDoc)

  const known = new Map<string, Doc | undefined>(guessed.map((slug, i) => [slug, guessedDocs[i] as Doc | undefined]))
  const readOne = async (slug: string) => {
    const doc = known.get(slug)
    if (doc !== undefined) return companyFromDocument(slug, doc)
    try {
      return companyFromDocument(slug, await reader.get(companyPath(slug)))
    } catch (error) {
      if (error instanceof FirestoreReadDenied) return null
      throw error
    }
  }
  // A refused list (a sign-in revoked since the token was issued) is no company, as a refused read is.
  const readAll = async () => {
    try {
      return ((await listed)?.value ?? (await reader.list(COMPANIES_COLLECTION))).map((doc) => companyFromDocument(doc.id, doc.data))
    } catch (error) {
      if (error instanceof FirestoreReadDenied) return []
      throw error
    }
  }
  const all = seesAllCompanies(access)
  const companies = (all ? await readAll() : await Promise.all((accessData?.companies ?? []).map(readOne)))
    .filter((company): company is Company => company !== null)
    .sort(byName)
  hints.set(session.uid, all ? 'all' : (accessData?.companies ?? []))
  const selected = selectCompany(
    companies.map((c) => c.slug),
    preferences.defaultCompany,
  )
  return { access, preferences, companies, company: companies.find((c) => c.slug === selected) ?? null }
}

/** A read whose failure is kept for later (or dropped, if the result is never needed). */
const settle = <T>(promise: Promise<T>): Promise<{ value: T } | null> =>
  promise.then(
    (value) => ({ value }),
    () => null,
  )
