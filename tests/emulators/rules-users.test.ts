// users_access, users_preferences and events: each person's own records, and who else may read
// them, against app/domain/access.ts.
import { arrayUnion, collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { LEVEL, pageRules, seesAllCompanies } from '#domain/access.ts'
import { COMPANIES_COLLECTION, companyPath } from '#domain/companies.ts'
import { userPreferencesPath, USERS_PREFERENCES_COLLECTION } from '#domain/users-preferences.ts'
import { userAccessPath, USERS_ACCESS_COLLECTION } from '#domain/users-access.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import {
  at,
  companies,
  demo,
  fresh,
  principals,
  ruleCase,
  rulesSuite,
  stamp,
  twin,
  usable,
  type Principal,
  type RuleCase,
} from './rules-harness.ts'
import { tokenClaims, usersAccessDocument } from '../builders.ts'

const suite = rulesSuite('users')
suite.seedPrincipals(principals)
for (const company of DEMO_COMPANIES) suite.seed(companyPath(company.slug), { ...company })

const page = (path: string, p: Principal) => pageRules[path]?.({ access: p.access, company: null }) ?? false
const signedIn = principals.filter((p): p is Principal & { uid: string } => p.uid !== null)
// Signed-out principals have no uid: their paths name nobody.
const uidOf = (p: Principal) => p.uid ?? 'nobody'
// Someone else's records: the viewer's, or the manager's for the viewer.
const otherThan = (p: Principal) => (p.uid === demo[1].uid ? demo[2] : demo[1])

for (const p of signedIn) {
  suite.seed(userPreferencesPath(p.uid), {
    defaultCompany: p.companies[0] ?? null,
    updatedAt: at('2025-09-01T12:00:00Z'),
    updatedBy: p.email,
  })
  suite.seed(`events/event-${p.uid}`, { type: 'sign_in', createdByUid: p.uid, createdAt: at('2025-09-01T12:00:00Z') })
}

function accessCases(): RuleCase[] {
  const cases: RuleCase[] = []
  const targets = signedIn.filter((t) => t.accessDoc !== null)
  for (const p of principals) {
    for (const t of targets) {
      const own = p.uid === t.uid
      // Company admins get no one else's: a document names every company and right of its person.
      // Their own even when revoked or removed: the open pages learn of it from there.
      const allowed = own ? p.uid !== null : usable(p) && page('/admin/app/users', p)
      const whose = own ? `its own ${USERS_ACCESS_COLLECTION}` : `the ${USERS_ACCESS_COLLECTION} of ${t.name}`
      cases.push(ruleCase(p, `gets ${whose}`, allowed, (db) => getDoc(doc(db, userAccessPath(t.uid)))))
    }
    if (p.uid !== null && p.accessDoc === null) {
      cases.push(
        ruleCase(p, `gets its own ${USERS_ACCESS_COLLECTION} (there is none)`, true, (db) => getDoc(doc(db, userAccessPath(uidOf(p))))),
      )
    }
    cases.push(
      ruleCase(p, `lists ${USERS_ACCESS_COLLECTION}`, page('/admin/app/users', p), (db) =>
        getDocs(collection(db, USERS_ACCESS_COLLECTION)),
      ),
    )
    for (const slug of companies) {
      const allowed = page('/admin/app/users', p)
      cases.push(
        ruleCase(p, `lists ${USERS_ACCESS_COLLECTION} where companies array-contains ${slug}`, allowed, (db) =>
          getDocs(query(collection(db, USERS_ACCESS_COLLECTION), where(COMPANIES_COLLECTION, 'array-contains', slug))),
        ),
      )
    }
    if (p.companies.length > 0) {
      const allowed = page('/admin/app/users', p)
      cases.push(
        ruleCase(p, `lists ${USERS_ACCESS_COLLECTION} where companies array-contains-any of its own`, allowed, (db) =>
          getDocs(query(collection(db, USERS_ACCESS_COLLECTION), where(COMPANIES_COLLECTION, 'array-contains-any', [...p.companies]))),
        ),
      )
    }

    // Never from a client: claims, companies and service rights are set by functions.
    const other = otherThan(p)
    const self = uidOf(p)
    const newcomer = twin(p, 'newcomer')
    cases.push(
      ruleCase(p, `creates a ${USERS_ACCESS_COLLECTION} for itself`, false, (db) =>
        setDoc(doc(db, userAccessPath(uidOf(newcomer))), {
          ...usersAccessDocument({ claims: tokenClaims(LEVEL.platformAdmin), companies: ['acme'] }),
        }),
      ),
    )
    cases.push(
      ruleCase(p, 'raises its own accessLevel', false, (db) =>
        updateDoc(doc(db, userAccessPath(self)), { 'claims.accessLevel': 9, 'claims.userType': 'analyst' }),
      ),
    )
    cases.push(
      ruleCase(p, `adds a company to its own ${USERS_ACCESS_COLLECTION}`, false, (db) =>
        updateDoc(doc(db, userAccessPath(self)), { companies: arrayUnion('globex') }),
      ),
    )
    cases.push(
      ruleCase(p, 'enables a service for itself', false, (db) =>
        updateDoc(doc(db, userAccessPath(self)), { servicesEnabled: arrayUnion('cloud') }),
      ),
    )
    cases.push(
      ruleCase(p, `writes the ${USERS_ACCESS_COLLECTION} of ${other.name}`, false, (db) =>
        updateDoc(doc(db, userAccessPath(uidOf(other))), { companies: ['umbrella'] }),
      ),
    )
    cases.push(ruleCase(p, `deletes its own ${USERS_ACCESS_COLLECTION}`, false, (db) => deleteDoc(doc(db, userAccessPath(self)))))
  }
  return cases
}

/** A principal whose own preferences (seeded as given) no other case touches. */
function withOwnPreferences(p: Principal, suffix: string, preferences: Record<string, unknown> | null): Principal {
  const own = twin(p, suffix)
  if (own.uid === null) return own
  suite.seedPrincipals([own])
  if (preferences) suite.seed(userPreferencesPath(own.uid), { updatedAt: at('2025-09-01T12:00:00Z'), updatedBy: own.email, ...preferences })
  return own
}

function preferencesCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    const other = otherThan(p)
    cases.push(ruleCase(p, 'gets its own preferences', usable(p), (db) => getDoc(doc(db, userPreferencesPath(uidOf(p))))))
    cases.push(ruleCase(p, `gets the preferences of ${other.name}`, false, (db) => getDoc(doc(db, userPreferencesPath(uidOf(other))))))
    cases.push(ruleCase(p, 'lists preferences', false, (db) => getDocs(collection(db, USERS_PREFERENCES_COLLECTION))))

    const creator = withOwnPreferences(p, 'creates', null)
    cases.push(
      ruleCase(creator, 'creates its own preferences', usable(p), (db) =>
        setDoc(doc(db, userPreferencesPath(uidOf(creator))), { defaultCompany: null, colorScheme: 'dark', ...stamp(p) }),
      ),
    )
    for (const slug of [...companies, 'nowhere']) {
      const chooser = withOwnPreferences(p, `chooses-${slug}`, { defaultCompany: null })
      const exists = companies.includes(slug)
      const allowed = usable(p) && (p.companies.includes(slug) || (seesAllCompanies(p.access) && exists))
      cases.push(
        ruleCase(chooser, `sets its default company to ${slug}`, allowed, (db) =>
          updateDoc(doc(db, userPreferencesPath(uidOf(chooser))), { defaultCompany: slug, ...stamp(p) }),
        ),
      )
    }
    const clearer = withOwnPreferences(p, 'clears', { defaultCompany: p.companies[0] ?? null })
    cases.push(
      ruleCase(clearer, 'clears its default company', usable(p), (db) =>
        updateDoc(doc(db, userPreferencesPath(uidOf(clearer))), { defaultCompany: null, ...stamp(p) }),
      ),
    )
    cases.push(
      ruleCase(p, `writes the preferences of ${other.name}`, false, (db) =>
        updateDoc(doc(db, userPreferencesPath(uidOf(other))), { colorScheme: 'light', ...stamp(p) }),
      ),
    )
    cases.push(ruleCase(p, 'deletes its own preferences', false, (db) => deleteDoc(doc(db, userPreferencesPath(uidOf(p))))))
  }

  // Forged and borderline saves by the client viewer (member of acme only).
  const viewer = demo[1]
  const saves: [string, Record<string, unknown> | null, Record<string, unknown>, boolean][] = [
    ['a display name of 100 characters', { defaultCompany: 'acme' }, { displayName: 'x'.repeat(100), ...stamp(viewer) }, true],
    ['a display name of 101 characters', { defaultCompany: 'acme' }, { displayName: 'x'.repeat(101), ...stamp(viewer) }, false],
    ['a display name that is not a string', { defaultCompany: 'acme' }, { displayName: 7, ...stamp(viewer) }, false],
    ['an https photo URL', { defaultCompany: 'acme' }, { photoURL: 'https://cdn.example/p.png', ...stamp(viewer) }, true],
    ['an empty photo URL (no photo)', { defaultCompany: 'acme' }, { photoURL: '', ...stamp(viewer) }, true],
    ['an http photo URL', { defaultCompany: 'acme' }, { photoURL: 'http://cdn.example/p.png', ...stamp(viewer) }, false],
    ['a javascript: photo URL', { defaultCompany: 'acme' }, { photoURL: 'javascript:alert(1)', ...stamp(viewer) }, false],
    [
      'a photo URL of 2049 characters',
      { defaultCompany: 'acme' },
      { photoURL: `https://cdn.example/${'p'.repeat(2049 - 19)}`, ...stamp(viewer) },
      false,
    ],
    ['the colour scheme "auto"', { defaultCompany: 'acme' }, { colorScheme: 'auto', ...stamp(viewer) }, true],
    ['the colour scheme "blue"', { defaultCompany: 'acme' }, { colorScheme: 'blue', ...stamp(viewer) }, false],
    ['a default company that is a number', { defaultCompany: 'acme' }, { defaultCompany: 42, ...stamp(viewer) }, false],
    ['a default company of another company (globex)', { defaultCompany: 'acme' }, { defaultCompany: 'globex', ...stamp(viewer) }, false],
    ['an extra key', { defaultCompany: 'acme' }, { isAdmin: true, ...stamp(viewer) }, false],
    [
      "someone else's updatedBy",
      { defaultCompany: 'acme' },
      { colorScheme: 'dark', ...stamp(viewer), updatedBy: 'platform@sectest.example' },
      false,
    ],
    [
      'an updatedAt that is not the request time',
      { defaultCompany: 'acme' },
      { colorScheme: 'dark', ...stamp(viewer), updatedAt: at('2025-01-01T00:00:00Z') },
      false,
    ],
    ['no new stamp', { defaultCompany: 'acme' }, { colorScheme: 'dark' }, false],
    // A company lost since it was chosen does not block other preferences.
    [
      'its colour scheme while its default company is one it left',
      { defaultCompany: 'globex' },
      { colorScheme: 'dark', ...stamp(viewer) },
      true,
    ],
    ['a first save with an extra key', null, { defaultCompany: 'acme', theme: 'x', ...stamp(viewer) }, false],
    ['a first save with a company it is not in', null, { defaultCompany: 'initech', ...stamp(viewer) }, false],
    ['a first save with its company', null, { defaultCompany: 'acme', displayName: 'Vera', ...stamp(viewer) }, true],
  ]
  for (const [what, before, change, allowed] of saves) {
    const own = withOwnPreferences(viewer, fresh('save'), before)
    const ref = userPreferencesPath(uidOf(own))
    cases.push(
      ruleCase(own, `saves its preferences with ${what}`, allowed, (db) =>
        before ? updateDoc(doc(db, ref), change) : setDoc(doc(db, ref), change),
      ),
    )
  }
  return cases
}

function eventCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    const other = otherThan(p)
    const self = uidOf(p)
    cases.push(ruleCase(p, 'gets its own event', usable(p), (db) => getDoc(doc(db, `events/event-${self}`))))
    cases.push(ruleCase(p, `gets an event of ${other.name}`, false, (db) => getDoc(doc(db, `events/event-${other.uid}`))))
    cases.push(
      ruleCase(p, 'lists events where createdByUid == its uid', usable(p), (db) =>
        getDocs(query(collection(db, EVENTS_COLLECTION), where('createdByUid', '==', self))),
      ),
    )
    cases.push(
      ruleCase(p, `lists events where createdByUid == the uid of ${other.name}`, false, (db) =>
        getDocs(query(collection(db, EVENTS_COLLECTION), where('createdByUid', '==', other.uid))),
      ),
    )
    cases.push(ruleCase(p, 'lists every event', false, (db) => getDocs(collection(db, EVENTS_COLLECTION))))
    cases.push(
      ruleCase(p, 'creates an event', false, (db) =>
        setDoc(doc(db, `${EVENTS_COLLECTION}/${fresh('event')}`), {
          type: 'sign_in',
          createdByUid: self,
          createdAt: at('2025-09-02T12:00:00Z'),
        }),
      ),
    )
    cases.push(ruleCase(p, 'updates its own event', false, (db) => updateDoc(doc(db, `events/event-${self}`), { type: 'forged' })))
    cases.push(ruleCase(p, 'deletes its own event', false, (db) => deleteDoc(doc(db, `events/event-${self}`))))
  }
  return cases
}

describe(`firestore.rules: ${USERS_ACCESS_COLLECTION}`, () => suite.run(accessCases()))
describe('firestore.rules: users_preferences', () => suite.run(preferencesCases()))
describe('firestore.rules: events', () => suite.run(eventCases()))
