import * as v from 'valibot'
import { seesAllCompanies } from '#domain/access.ts'
import { selectCompany } from '#domain/company-selection.ts'
import type { Session } from '~/features/session/session'
import { accessOf, CompanySchema, PreferencesSchema, UserAccessSchema, type Company, type Workspace } from '~/features/workspace/workspace'
import { publicConfig } from './config.server'
import { firestoreReader, FirestoreReadDenied, type Plain } from './firestore-rest.server'

const parseCompany = (slug: string, data: { [key: string]: Plain }): Company | null => {
  const parsed = v.safeParse(CompanySchema, { slug, ...data })
  return parsed.success ? parsed.output : null
}

const byName = (a: Company, b: Company) => a.companyName.localeCompare(b.companyName)

/**
 * The workspace for the first render, read with the user's own token (the rules decide what the
 * Worker may see, as for the browser). A company the rules refuse is left out.
 */
export async function loadWorkspace(session: Session, idToken: string): Promise<Workspace> {
  const reader = firestoreReader(publicConfig(), idToken)
  const [accessDoc, preferencesDoc] = await Promise.all([
    reader.get(`users_access/${session.uid}`),
    reader.get(`users_preferences/${session.uid}`),
  ])
  const accessData = v.parse(UserAccessSchema, accessDoc ?? {})
  const access = accessOf(accessData, session)
  const preferences = v.parse(PreferencesSchema, preferencesDoc ?? {})

  const readOne = async (slug: string) => {
    try {
      const data = await reader.get(`companies/${slug}`)
      return data ? parseCompany(slug, data) : null
    } catch (error) {
      if (error instanceof FirestoreReadDenied) return null
      throw error
    }
  }
  const companies = (
    seesAllCompanies(access)
      ? (await reader.list('companies')).map((doc) => parseCompany(doc.id, doc.data))
      : await Promise.all(accessData.companies.map(readOne))
  )
    .filter((company): company is Company => company !== null)
    .sort(byName)
  const selected = selectCompany(
    companies.map((c) => c.slug),
    preferences.defaultCompany,
  )
  return { access, preferences, companies, company: companies.find((c) => c.slug === selected) ?? null }
}
