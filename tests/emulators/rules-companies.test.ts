// Companies and DAST keys: who reads and writes them, per company, against app/domain/access.ts.
// Their reports (scans, findings and the rest) are in reports-rules.test.ts.
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { hasLevel, LEVEL, pageRules, seesAllCompanies } from '#domain/access.ts'
import { COMPANIES_COLLECTION, companyPath } from '#domain/companies.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import {
  at,
  companies,
  demo,
  flagsOf,
  fresh,
  principals,
  ruleCase,
  rulesSuite,
  selects,
  stamp,
  type Principal,
  type RuleCase,
} from './rules-harness.ts'
import { companyDocument } from '../builders.ts'

const suite = rulesSuite(COMPANIES_COLLECTION)
suite.seedPrincipals(principals)
for (const company of DEMO_COMPANIES) suite.seed(companyPath(company.slug), { ...company })

const page = (path: string, p: Principal, slug: string | null = null) =>
  pageRules[path]?.({ access: p.access, company: slug ? flagsOf(slug) : null }) ?? false

const companyDoc = (slug: string, p: Principal) => ({ ...companyDocument(slug), ...stamp(p) })

// Every company's DAST key, as functions leave it.
for (const slug of companies) {
  suite.seed(`dast_keys/key-${slug}`, {
    company: slug,
    prefix: 'bwk_1a2b',
    hash: 'c'.repeat(64),
    createdAt: at('2025-09-01T12:00:00Z'),
    createdBy: 'admin@acme.example',
  })
}

/** A document only this case touches, seeded with `data`. */
function own(path: string, data: Record<string, unknown>): string {
  suite.seed(path, data)
  return path
}

function companyCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      cases.push(ruleCase(p, `gets companies/${slug}`, selects(p, slug), (db) => getDoc(doc(db, companyPath(slug)))))
    }
    cases.push(ruleCase(p, 'lists companies', seesAllCompanies(p.access), (db) => getDocs(collection(db, COMPANIES_COLLECTION))))

    const created = fresh('new-co')
    cases.push(
      ruleCase(p, 'creates a company', page('/admin/company/create-company', p), (db) =>
        setDoc(doc(db, companyPath(created)), companyDoc(created, p)),
      ),
    )
    const updated = fresh('upd-co')
    own(companyPath(updated), companyDoc(updated, demo[7]))
    cases.push(
      ruleCase(p, 'renames a company', page('/admin/company', p), (db) =>
        updateDoc(doc(db, companyPath(updated)), { companyName: 'Renamed', ...stamp(p) }),
      ),
    )
    const switched = fresh('flag-co')
    own(companyPath(switched), companyDoc(switched, demo[7]))
    cases.push(
      ruleCase(p, 'turns a company service on', page('/admin/company', p), (db) =>
        updateDoc(doc(db, companyPath(switched)), { enableDast: true, ...stamp(p) }),
      ),
    )
    const deleted = fresh('del-co')
    own(companyPath(deleted), companyDoc(deleted, demo[7]))
    cases.push(ruleCase(p, 'deletes a company', hasLevel(p.access, LEVEL.platformAdmin), (db) => deleteDoc(doc(db, companyPath(deleted)))))
  }

  // Forged company writes by a senior analyst, who may write valid ones.
  const senior = demo[7]
  const forged: [string, (slug: string) => Record<string, unknown>][] = [
    ['a slug that is not the id', (slug) => ({ ...companyDoc(slug, senior), slug: 'acme' })],
    ['an empty name', (slug) => ({ ...companyDoc(slug, senior), companyName: '' })],
    ['a blank name', (slug) => ({ ...companyDoc(slug, senior), companyName: '   ' })],
    ['a name of 121 characters', (slug) => ({ ...companyDoc(slug, senior), companyName: 'x'.repeat(121) })],
    ['a flag that is not a boolean', (slug) => ({ ...companyDoc(slug, senior), enableDast: 'yes' })],
    ['an extra key', (slug) => ({ ...companyDoc(slug, senior), billing: 'gold' })],
    ["someone else's updatedBy", (slug) => ({ ...companyDoc(slug, senior), updatedBy: 'platform@sectest.example' })],
    ['an updatedAt that is not the request time', (slug) => ({ ...companyDoc(slug, senior), updatedAt: at('2025-01-01T00:00:00Z') })],
  ]
  cases.push(
    ruleCase(senior, 'creates a company with a name of 120 characters', true, (db) => {
      const slug = fresh('long-co')
      return setDoc(doc(db, companyPath(slug)), { ...companyDoc(slug, senior), companyName: 'x'.repeat(120) })
    }),
  )
  for (const [what, data] of forged) {
    cases.push(
      ruleCase(senior, `creates a company with ${what}`, false, (db) => {
        const slug = fresh('forged-co')
        return setDoc(doc(db, companyPath(slug)), data(slug))
      }),
    )
  }
  return cases
}

function dastKeyCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      const allowed = selects(p, slug) && page('/admin/dast', p, slug)
      cases.push(ruleCase(p, `gets the DAST key of ${slug}`, allowed, (db) => getDoc(doc(db, `dast_keys/key-${slug}`))))
      cases.push(
        ruleCase(p, `lists DAST keys where company == ${slug}`, allowed, (db) =>
          getDocs(query(collection(db, 'dast_keys'), where('company', '==', slug))),
        ),
      )
    }
    cases.push(ruleCase(p, 'lists every DAST key', false, (db) => getDocs(collection(db, 'dast_keys'))))
    const key = {
      company: 'acme',
      prefix: 'bwk_9z9z',
      hash: 'd'.repeat(64),
      createdAt: at('2025-09-02T12:00:00Z'),
      createdBy: p.email ?? '',
    }
    cases.push(ruleCase(p, 'creates a DAST key', false, (db) => setDoc(doc(db, `dast_keys/${fresh('new-key')}`), key)))
    cases.push(ruleCase(p, 'updates a DAST key', false, (db) => updateDoc(doc(db, 'dast_keys/key-acme'), { prefix: 'bwk_0000' })))
    cases.push(ruleCase(p, 'deletes a DAST key', false, (db) => deleteDoc(doc(db, 'dast_keys/key-acme'))))
  }
  return cases
}

describe('firestore.rules: companies', () => suite.run(companyCases()))
describe('firestore.rules: DAST keys', () => suite.run(dastKeyCases()))
