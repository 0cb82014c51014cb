import { seesAllCompanies } from '#domain/access.ts'
import { COMPANIES_COLLECTION, companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { readPreferences, userPreferencesPath } from '#domain/users-preferences.ts'
import { accessFromDocument, readUserAccess, userAccessPath } from '#domain/users-access.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { publicConfig } from './config.server'
import { firestoreReader, FirestoreReadDenied } from './firestore-rest.server'

const byName = (a: Company, b: Company) => a.companyName.localeCompare(b.companyName)

/**
 * The workspace for the first render, read with the user's own token (the rules decide what the
 * Worker may see, as for the browser). A company the rules refuse is left out.
 */
export async function loadWorkspace(session: Session, idToken: string): Promise<Workspace> {
  const reader = firestoreReader(publicConfig(), idToken)
  const [accessDoc, preferencesDoc] = await Promise.all([
    reader.get(userAccessPath(session.uid)),
    reader.get(userPreferencesPath(session.uid)),
  ])
  // No users_access is no access: the token's level counts for nothing without it.
  const accessData = accessDoc ? readUserAccess(accessDoc) : null
  const access = accessFromDocument(accessData, session)
  const preferences = readPreferences(preferencesDoc)

  const readOne = async (slug: string) => {
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
      return (await reader.list(COMPANIES_COLLECTION)).map((doc) => companyFromDocument(doc.id, doc.data))
    } catch (error) {
      if (error instanceof FirestoreReadDenied) return []
      throw error
    }
  }
  const companies = (seesAllCompanies(access) ? await readAll() : await Promise.all((accessData?.companies ?? []).map(readOne)))
    .filter((company): company is Company => company !== null)
    .sort(byName)
  const selected = selectCompany(
    companies.map((c) => c.slug),
    preferences.defaultCompany,
  )
  return { access, preferences, companies, company: companies.find((c) => c.slug === selected) ?? null }
}
