// Companies, their scans and findings, and DAST keys: who reads and writes them, per company and
// service, against app/domain/access.ts.
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { canViewReport, hasLevel, isAdminType, LEVEL, pageRules, seesAllCompanies } from '#domain/access.ts'
import { services } from '#domain/services.ts'
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

const serviceIds = services.map((s) => s.id)
const page = (path: string, p: Principal, slug: string | null = null) =>
  pageRules[path]?.({ access: p.access, company: slug ? flagsOf(slug) : null }) ?? false

const companyDoc = (slug: string, p: Principal) => ({ ...companyDocument(slug), ...stamp(p) })

function scanDoc(service: string) {
  return {
    service,
    status: 'finished',
    startedAt: at('2025-09-01T10:00:00Z'),
    finishedAt: at('2025-09-01T12:00:00Z'),
    agent: 'agent-1',
    location: 'eu-1',
    summary: { hosts: 3 },
  }
}

function findingDoc(service: string) {
  return {
    service,
    scanId: `scan-${service}`,
    templateSlug: 'weak-tls',
    title: 'Weak TLS configuration',
    severity: 'medium',
    cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7 },
    asset: 'https://app.acme.example',
    evidence: 'TLS 1.0 accepted',
    status: 'open',
    history: [{ status: 'open', at: at('2025-09-01T12:00:00Z'), by: 'analyst@sectest.example' }],
    firstSeen: at('2025-09-01T12:00:00Z'),
    lastSeen: at('2025-09-01T12:00:00Z'),
    tags: ['tls'],
  }
}

const results = { scans: scanDoc, findings: findingDoc } as const
type Results = keyof typeof results

// One scan and one finding per company and service, as functions and analysts leave them.
for (const slug of companies) {
  for (const service of serviceIds) {
    suite.seed(`companies/${slug}/scans/scan-${service}`, {
      ...scanDoc(service),
      updatedAt: at('2025-09-01T12:00:00Z'),
      updatedBy: 'analyst@sectest.example',
    })
    suite.seed(`companies/${slug}/findings/finding-${service}`, {
      ...findingDoc(service),
      updatedAt: at('2025-09-01T12:00:00Z'),
      updatedBy: 'analyst@sectest.example',
    })
  }
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

function resultCases(kind: Results): RuleCase[] {
  const cases: RuleCase[] = []
  const valid = results[kind]
  for (const p of principals) {
    for (const slug of companies) {
      for (const service of serviceIds) {
        const allowed = selects(p, slug) && canViewReport(p.access, flagsOf(slug), service)
        const id = kind === 'scans' ? `scan-${service}` : `finding-${service}`
        cases.push(ruleCase(p, `gets ${slug} ${kind}/${id}`, allowed, (db) => getDoc(doc(db, `companies/${slug}/${kind}/${id}`))))
        cases.push(
          ruleCase(p, `lists ${slug} ${kind} where service == ${service}`, allowed, (db) =>
            getDocs(query(collection(db, `companies/${slug}/${kind}`), where('service', '==', service))),
          ),
        )
      }
      // Without a service only the override can be proven.
      cases.push(
        ruleCase(p, `lists every ${slug} ${kind}`, seesAllCompanies(p.access), (db) =>
          getDocs(collection(db, `companies/${slug}/${kind}`)),
        ),
      )

      const writes = selects(p, slug) && isAdminType(p.access)
      cases.push(
        ruleCase(p, `creates a ${slug} ${kind} document`, writes, (db) =>
          setDoc(doc(db, `companies/${slug}/${kind}/${fresh('new')}`), { ...valid('network'), ...stamp(p) }),
        ),
      )
      const updated = own(`companies/${slug}/${kind}/${fresh('upd')}`, { ...valid('network'), ...stamp(demo[5]) })
      const change = kind === 'scans' ? { status: 'running' } : { status: 'fixed' }
      cases.push(ruleCase(p, `updates a ${slug} ${kind} document`, writes, (db) => updateDoc(doc(db, updated), { ...change, ...stamp(p) })))
      const deleted = own(`companies/${slug}/${kind}/${fresh('del')}`, { ...valid('network'), ...stamp(demo[5]) })
      cases.push(ruleCase(p, `deletes a ${slug} ${kind} document`, writes, (db) => deleteDoc(doc(db, deleted))))
    }
  }
  return cases
}

// Forged results by a level-5 analyst of acme, who may write valid ones.
function forgedResultCases(): RuleCase[] {
  const analyst = demo[5]
  const base = `companies/acme`
  const cases: RuleCase[] = []
  const creates: [Results, string, Record<string, unknown>, boolean][] = [
    ['findings', 'a valid finding', { ...findingDoc('dast'), ...stamp(analyst) }, true],
    [
      'findings',
      'a finding without optional fields',
      { ...findingDoc('dast'), templateSlug: undefined, cvss: undefined, evidence: undefined, tags: undefined, ...stamp(analyst) },
      true,
    ],
    [
      'findings',
      'a finding whose evidence is a map',
      { ...findingDoc('dast'), evidence: { request: 'GET /', response: '200' }, ...stamp(analyst) },
      true,
    ],
    ['findings', 'a finding with the status "closed"', { ...findingDoc('dast'), status: 'closed', ...stamp(analyst) }, false],
    ['findings', 'a finding with the severity "urgent"', { ...findingDoc('dast'), severity: 'urgent', ...stamp(analyst) }, false],
    ['findings', 'a finding of the service "email"', { ...findingDoc('email'), ...stamp(analyst) }, false],
    ['findings', 'a finding without history', { ...findingDoc('dast'), history: undefined, ...stamp(analyst) }, false],
    ['findings', 'a finding with an extra key', { ...findingDoc('dast'), owner: 'mallory', ...stamp(analyst) }, false],
    [
      'findings',
      "a finding with someone else's updatedBy",
      { ...findingDoc('dast'), ...stamp(analyst), updatedBy: 'senior@sectest.example' },
      false,
    ],
    [
      'findings',
      'a finding with an updatedAt that is not the request time',
      { ...findingDoc('dast'), ...stamp(analyst), updatedAt: at('2025-01-01T00:00:00Z') },
      false,
    ],
    ['scans', 'a valid scan', { ...scanDoc('cloud'), ...stamp(analyst) }, true],
    ['scans', 'a scan without a summary', { ...scanDoc('cloud'), summary: undefined, ...stamp(analyst) }, false],
    ['scans', 'a scan of the service "email"', { ...scanDoc('email'), ...stamp(analyst) }, false],
    ['scans', 'a scan with an extra key', { ...scanDoc('cloud'), owner: 'mallory', ...stamp(analyst) }, false],
    ['scans', 'a scan with a start that is not a timestamp', { ...scanDoc('cloud'), startedAt: 'yesterday', ...stamp(analyst) }, false],
  ]
  for (const [kind, what, data, allowed] of creates) {
    const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined))
    cases.push(ruleCase(analyst, `creates ${what}`, allowed, (db) => setDoc(doc(db, `${base}/${kind}/${fresh('forged')}`), clean)))
  }
  const updates: [string, Record<string, unknown>][] = [
    ['to the status "closed"', { status: 'closed', ...stamp(analyst) }],
    ['to another service', { service: 'cloud', ...stamp(analyst) }],
    ['without a new stamp', { status: 'fixed' }],
    ["with someone else's updatedBy", { status: 'fixed', ...stamp(analyst), updatedBy: 'senior@sectest.example' }],
  ]
  for (const [what, change] of updates) {
    const path = own(`${base}/findings/${fresh('forged-upd')}`, { ...findingDoc('dast'), ...stamp(analyst) })
    cases.push(ruleCase(analyst, `updates a finding ${what}`, false, (db) => updateDoc(doc(db, path), change)))
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
describe('firestore.rules: scans', () => suite.run(resultCases('scans')))
describe('firestore.rules: findings', () => suite.run([...resultCases('findings'), ...forgedResultCases()]))
describe('firestore.rules: DAST keys', () => suite.run(dastKeyCases()))
