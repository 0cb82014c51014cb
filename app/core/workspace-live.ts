// Live company context in the browser: the user's access, preferences and companies, followed with
// Firestore listeners that start from what the server rendered with. Loaded with `import()`.
import { collection, doc, onSnapshot, serverTimestamp, setDoc, type Unsubscribe } from 'firebase/firestore'
import { seesAllCompanies, showsCompanyName } from '#domain/access.ts'
import { COMPANIES_COLLECTION, companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { readPreferences, userPreferencesPath, type Preferences } from '#domain/users-preferences.ts'
import { accessFromDocument, readUserAccess, userAccessPath, type UserAccessDocument } from '#domain/users-access.ts'
import type { Session } from './session'
import { unknownYet } from './cache-snapshots'
import { firebaseAuth, firestore } from './firebase'
import { samePlainData } from './same-plain-data'
import type { Workspace } from './workspace'

export interface WorkspaceWatch {
  /** The workspace the page shows now (the edge's, a session hand-over's or the last published). */
  shown(): Workspace | null
  onChange(workspace: Workspace): void
  /** A company read was refused for someone who is not an analyst: their sign-in is no longer good. */
  onDenied(error: Error): void
}

/**
 * Follows the workspace of `session`, starting from `seed`. Analysts who see every company follow
 * the whole collection (a new company appears by itself); others follow their own companies.
 */
export function watchWorkspace(session: Session, seed: Workspace | null, watch: WorkspaceWatch): () => void {
  // Null: there is no users_access, which is no access.
  let accessData: UserAccessDocument | null = null
  // Nothing is published before the access document arrived: the seed stays in place until then.
  let accessKnown = false
  let preferences = seed?.preferences ?? readPreferences(undefined)
  let companies = new Map<string, Company>((seed?.companies ?? []).map((c) => [c.slug, c]))
  let companiesKnown = seed !== null
  let stopCompanies: Unsubscribe[] = []
  let followedKey = ''

  const publish = () => {
    if (!accessKnown) return
    const access = accessFromDocument(accessData, session)
    const list = [...companies.values()].sort((a, b) => a.companyName.localeCompare(b.companyName))
    const selected = selectCompany(companiesKnown ? list.map((c) => c.slug) : undefined, preferences.defaultCompany)
    const workspace: Workspace = {
      access,
      preferences,
      companies: list,
      company: selected === undefined ? undefined : (list.find((c) => c.slug === selected) ?? null),
    }
    // The first snapshots mostly repeat what the page was rendered with, and each change reloads the
    // routes and renders the page again: only a workspace that differs from the page's is published.
    if (samePlainData(watch.shown(), workspace)) return
    watch.onChange(workspace)
  }

  const denied = (slug: string | null) => (error: Error) => {
    // Signed out (or in as someone else) while this listener still ran: its refusal is that sign-out's
    // doing, and the workspace it belonged to is being put away.
    if (firebaseAuth().currentUser?.uid !== session.uid) return
    console.error(`Company ${slug ?? 'list'} could not be read`, error)
    if (showsCompanyName(accessFromDocument(accessData, session))) {
      // Analysts keep working; the company is treated as disabled.
      if (slug) companies.delete(slug)
      else companies = new Map()
      publish()
    } else {
      watch.onDenied(error)
    }
  }

  const followCompanies = () => {
    const all = seesAllCompanies(accessFromDocument(accessData, session))
    const mine = accessData?.companies ?? []
    const key = all ? '*' : mine.join(',')
    if (key === followedKey) return
    followedKey = key
    stopCompanies.forEach((stop) => stop())
    if (all) {
      stopCompanies = [
        onSnapshot(
          collection(firestore(), COMPANIES_COLLECTION),
          (snapshot) => {
            if (unknownYet(snapshot, snapshot.empty)) return
            companies = new Map()
            for (const d of snapshot.docs) {
              const company = companyFromDocument(d.id, d.data())
              if (company) companies.set(d.id, company)
            }
            companiesKnown = true
            publish()
          },
          denied(null),
        ),
      ]
      return
    }
    companies = new Map([...companies].filter(([slug]) => mine.includes(slug)))
    companiesKnown = mine.length === 0 || mine.every((slug) => companies.has(slug))
    stopCompanies = mine.map((slug) =>
      onSnapshot(
        doc(firestore(), companyPath(slug)),
        (snapshot) => {
          if (unknownYet(snapshot, !snapshot.exists())) return
          const company = companyFromDocument(slug, snapshot.data())
          if (company) companies.set(slug, company)
          else companies.delete(slug)
          companiesKnown = true
          publish()
        },
        denied(slug),
      ),
    )
    publish()
  }

  const stopAccess = onSnapshot(
    doc(firestore(), userAccessPath(session.uid)),
    (snapshot) => {
      if (unknownYet(snapshot, !snapshot.exists())) return
      accessData = snapshot.exists() ? readUserAccess(snapshot.data()) : null
      accessKnown = true
      followCompanies()
      publish()
    },
    (error) => watch.onDenied(error),
  )
  const stopPreferences = onSnapshot(
    doc(firestore(), userPreferencesPath(session.uid)),
    (snapshot) => {
      if (unknownYet(snapshot, !snapshot.exists())) return
      preferences = readPreferences(snapshot.data())
      publish()
    },
    (error) => watch.onDenied(error),
  )

  return () => {
    stopAccess()
    stopPreferences()
    stopCompanies.forEach((stop) => stop())
  }
}

/** Saves some of the user's preferences, stamped with who and when (as every edited record is). */
export async function savePreferences(session: Session, changes: Partial<Preferences>): Promise<void> {
  await setDoc(
    doc(firestore(), userPreferencesPath(session.uid)),
    { ...changes, updatedAt: serverTimestamp(), updatedBy: session.email },
    { merge: true },
  )
}

/** Makes `slug` the user's company, here and on their next visit. */
export const switchCompany = (session: Session, slug: string) => savePreferences(session, { defaultCompany: slug })
