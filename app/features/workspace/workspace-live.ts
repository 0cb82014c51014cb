// Live company context in the browser: the user's access, preferences and companies, followed with
// Firestore listeners that start from what the server rendered with. Loaded with `import()`.
import { collection, doc, onSnapshot, serverTimestamp, setDoc, type Unsubscribe } from 'firebase/firestore'
import * as v from 'valibot'
import { seesAllCompanies, showsCompanyName } from '#domain/access.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { clientBoot } from '~/features/session/client-boot'
import type { Session } from '~/features/session/session'
import { firebaseClient } from '~/lib/firebase'
import { accessOf, CompanySchema, PreferencesSchema, UserAccessSchema, type Company, type Preferences, type Workspace } from './workspace'

const firestore = () => firebaseClient(clientBoot.current().firebase).firestore

export interface WorkspaceWatch {
  onChange(workspace: Workspace): void
  /** A company read was refused for someone who is not an analyst: their sign-in is no longer good. */
  onDenied(error: Error): void
}

/**
 * Follows the workspace of `session`, starting from `seed`. Analysts who see every company follow
 * the whole collection (a new company appears by itself); others follow their own companies.
 */
export function watchWorkspace(session: Session, seed: Workspace | null, watch: WorkspaceWatch): () => void {
  let accessData = v.parse(UserAccessSchema, {})
  // Nothing is published before the access document arrived: the seed stays in place until then.
  let accessKnown = false
  let preferences = seed?.preferences ?? v.parse(PreferencesSchema, {})
  let companies = new Map<string, Company>((seed?.companies ?? []).map((c) => [c.slug, c]))
  let companiesKnown = seed !== null
  let stopCompanies: Unsubscribe[] = []
  let followedKey = ''

  const publish = () => {
    if (!accessKnown) return
    const access = accessOf(accessData, session)
    const list = [...companies.values()].sort((a, b) => a.companyName.localeCompare(b.companyName))
    const selected = selectCompany(companiesKnown ? list.map((c) => c.slug) : undefined, preferences.defaultCompany)
    watch.onChange({
      access,
      preferences,
      companies: list,
      company: selected === undefined ? undefined : (list.find((c) => c.slug === selected) ?? null),
    })
  }

  const denied = (slug: string | null) => (error: Error) => {
    console.error(`Company ${slug ?? 'list'} could not be read`, error)
    if (showsCompanyName(accessOf(accessData, session))) {
      // Analysts keep working; the company is treated as disabled.
      if (slug) companies.delete(slug)
      else companies = new Map()
      publish()
    } else {
      watch.onDenied(error)
    }
  }

  const followCompanies = () => {
    const all = seesAllCompanies(accessOf(accessData, session))
    const key = all ? '*' : accessData.companies.join(',')
    if (key === followedKey) return
    followedKey = key
    stopCompanies.forEach((stop) => stop())
    if (all) {
      stopCompanies = [
        onSnapshot(
          collection(firestore(), 'companies'),
          (snapshot) => {
            companies = new Map()
            for (const d of snapshot.docs) {
              const parsed = v.safeParse(CompanySchema, { slug: d.id, ...d.data() })
              if (parsed.success) companies.set(d.id, parsed.output)
            }
            companiesKnown = true
            publish()
          },
          denied(null),
        ),
      ]
      return
    }
    companies = new Map([...companies].filter(([slug]) => accessData.companies.includes(slug)))
    companiesKnown = accessData.companies.length === 0 || accessData.companies.every((slug) => companies.has(slug))
    stopCompanies = accessData.companies.map((slug) =>
      onSnapshot(
        doc(firestore(), 'companies', slug),
        (snapshot) => {
          const parsed = v.safeParse(CompanySchema, { slug, ...snapshot.data() })
          if (parsed.success) companies.set(slug, parsed.output)
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
    doc(firestore(), 'users_access', session.uid),
    (snapshot) => {
      accessData = v.parse(UserAccessSchema, snapshot.data() ?? {})
      accessKnown = true
      followCompanies()
      publish()
    },
    (error) => watch.onDenied(error),
  )
  const stopPreferences = onSnapshot(
    doc(firestore(), 'users_preferences', session.uid),
    (snapshot) => {
      preferences = v.parse(PreferencesSchema, snapshot.data() ?? {})
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
    doc(firestore(), 'users_preferences', session.uid),
    { ...changes, updatedAt: serverTimestamp(), updatedBy: session.email },
    { merge: true },
  )
}

/** Makes `slug` the user's company, here and on their next visit. */
export const switchCompany = (session: Session, slug: string) => savePreferences(session, { defaultCompany: slug })
