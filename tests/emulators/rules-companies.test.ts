// Companies, their scan scopes, DAST keys, API tokens and audit events: who reads and writes them, per company, against app/domain/access.ts.
// Their reports (scans, findings and the rest) are in reports-rules.test.ts.
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { hasLevel, LEVEL, mayManageApiTokensOf, maySeeCompanyAudit, pageRules, seesAllCompanies } from '#domain/access.ts'
import { API_TOKEN_HASHES_COLLECTION, API_TOKENS_COLLECTION } from '#domain/api-tokens.ts'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import { scanScopePath } from '#domain/scan-scope.ts'
import { COMPANIES_COLLECTION, companyPath } from '#domain/companies.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import {
  at,
  companies,
  flagsOf,
  fresh,
  principals,
  ruleCase,
  rulesSuite,
  selects,
  stamp,
  type Principal,
  usable,
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

function companyCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      cases.push(ruleCase(p, `gets companies/${slug}`, selects(p, slug), (db) => getDoc(doc(db, companyPath(slug)))))
    }
    cases.push(ruleCase(p, 'lists companies', seesAllCompanies(p.access), (db) => getDocs(collection(db, COMPANIES_COLLECTION))))

    // Companies change through the company callables only, whoever asks.
    const created = fresh('new-co')
    cases.push(ruleCase(p, 'creates a company', false, (db) => setDoc(doc(db, companyPath(created)), companyDoc(created, p))))
    cases.push(
      ruleCase(p, 'renames a company', false, (db) => updateDoc(doc(db, companyPath('umbrella')), { companyName: 'Renamed', ...stamp(p) })),
    )
    cases.push(
      ruleCase(p, 'turns a company service on', false, (db) =>
        updateDoc(doc(db, companyPath('umbrella')), { enableDast: true, ...stamp(p) }),
      ),
    )
    cases.push(ruleCase(p, 'deletes a company', false, (db) => deleteDoc(doc(db, companyPath('umbrella')))))
  }
  return cases
}

// Every company's scan scope, as updateScanScope leaves it.
for (const slug of companies) {
  suite.seed(scanScopePath(slug), { entries: [{ kind: 'domain', value: `${slug}.example` }], updatedBy: 'senior@sectest.example' })
}

function scopeCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      // Those who manage companies, and the company's own DAST key managers.
      const allowed = (usable(p) && seesAllCompanies(p.access)) || (p.companies.includes(slug) && page('/admin/dast', p, slug))
      cases.push(ruleCase(p, `gets the scan scope of ${slug}`, allowed, (db) => getDoc(doc(db, scanScopePath(slug)))))
    }
    cases.push(
      ruleCase(p, 'writes a scan scope', false, (db) => setDoc(doc(db, scanScopePath('acme')), { entries: [], updatedBy: p.email ?? '' })),
    )
  }
  return cases
}

// One audit event of each company, and a platform-wide one.
const auditEvent = (companyId: string | null) => ({
  actorUid: 'uid-platform',
  actorEmail: 'platform@sectest.example',
  action: companyId ? 'company.updated' : 'service.updated',
  targetKind: companyId ? 'company' : 'service',
  targetId: companyId ?? 'dast',
  companyId,
  audience: companyId ? 'analysts' : 'platform',
  before: null,
  after: null,
  createdAt: at('2026-11-01T12:00:00Z'),
})
for (const slug of companies) suite.seed(`${AUDIT_EVENTS_COLLECTION}/event-${slug}`, auditEvent(slug))
suite.seed(`${AUDIT_EVENTS_COLLECTION}/event-platform`, auditEvent(null))

function auditCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      const allowed = usable(p) && maySeeCompanyAudit(p.access, p.companies.includes(slug))
      cases.push(
        ruleCase(p, `gets the audit event of ${slug}`, allowed, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/event-${slug}`))),
      )
      cases.push(
        ruleCase(p, `lists audit events where companyId == ${slug} (the company page's query)`, allowed, (db) =>
          getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('companyId', '==', slug), where('audience', '==', 'analysts'))),
        ),
      )
    }
    const platformWide = usable(p) && hasLevel(p.access, LEVEL.platformAdmin)
    cases.push(
      ruleCase(p, 'gets a platform-wide audit event', platformWide, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/event-platform`))),
    )
    cases.push(ruleCase(p, 'lists every audit event', platformWide, (db) => getDocs(collection(db, AUDIT_EVENTS_COLLECTION))))
    cases.push(
      ruleCase(p, 'writes an audit event', false, (db) =>
        setDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/${fresh('forged')}`), auditEvent('acme')),
      ),
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

// Every company's API token and its hash, as createApiToken leaves them.
for (const slug of companies) {
  suite.seed(`${API_TOKENS_COLLECTION}/token-${slug}`, {
    company: slug,
    name: 'tracker sync',
    prefix: 'bwk_api_token',
    last4: 'abcd',
    scopes: ['findings:read'],
    createdAt: at('2025-09-01T12:00:00Z'),
    createdBy: 'admin@acme.example',
  })
  suite.seed(`${API_TOKEN_HASHES_COLLECTION}/token-${slug}`, { company: slug, hash: 'e'.repeat(64) })
}

function apiTokenCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      const allowed = mayManageApiTokensOf(p.access, flagsOf(slug), selects(p, slug))
      cases.push(ruleCase(p, `gets the API token of ${slug}`, allowed, (db) => getDoc(doc(db, `${API_TOKENS_COLLECTION}/token-${slug}`))))
      cases.push(
        ruleCase(p, `lists API tokens where company == ${slug}`, allowed, (db) =>
          getDocs(query(collection(db, API_TOKENS_COLLECTION), where('company', '==', slug))),
        ),
      )
      cases.push(
        ruleCase(p, `gets the hash of ${slug}'s API token`, false, (db) => getDoc(doc(db, `${API_TOKEN_HASHES_COLLECTION}/token-${slug}`))),
      )
    }
    // Those who see every company manage every company's tokens; nobody else lists without naming the company.
    cases.push(ruleCase(p, 'lists every API token', seesAllCompanies(p.access), (db) => getDocs(collection(db, API_TOKENS_COLLECTION))))
    const token = {
      company: 'acme',
      name: 'forged',
      scopes: ['findings:write'],
      createdAt: at('2025-09-02T12:00:00Z'),
      createdBy: p.email ?? '',
    }
    cases.push(ruleCase(p, 'creates an API token', false, (db) => setDoc(doc(db, `${API_TOKENS_COLLECTION}/${fresh('new-token')}`), token)))
    cases.push(
      ruleCase(p, 'widens an API token', false, (db) =>
        updateDoc(doc(db, `${API_TOKENS_COLLECTION}/token-acme`), { scopes: ['findings:read', 'findings:write', 'dast:trigger'] }),
      ),
    )
    cases.push(ruleCase(p, 'deletes an API token', false, (db) => deleteDoc(doc(db, `${API_TOKENS_COLLECTION}/token-acme`))))
  }
  return cases
}

describe('firestore.rules: companies', () => suite.run(companyCases()))
describe('firestore.rules: API tokens', () => suite.run(apiTokenCases()))
describe('firestore.rules: DAST keys', () => suite.run(dastKeyCases()))
describe('firestore.rules: scan scopes', () => suite.run(scopeCases()))
describe('firestore.rules: audit events', () => suite.run(auditCases()))
