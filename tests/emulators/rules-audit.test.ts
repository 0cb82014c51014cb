// audit_events against app/domain/access.ts: platform admins read every event; those who may
// manage a company's people read that company's events, asking for one company at a time; nobody
// writes one from a browser (the functions write each with its change).
import { addDoc, collection, deleteDoc, doc, getDoc, getDocs, query, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { pageRules } from '#domain/access.ts'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import { at, principals, ruleCase, rulesSuite, type Principal, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('audit events')
suite.seedPrincipals(principals)

const page = (path: string, p: Principal) => pageRules[path]?.({ access: p.access, company: null }) ?? false

const event = (companyId: string | null) => ({
  actorUid: 'demo-platform-admin',
  actorEmail: 'platform@sectest.example',
  action: 'user.updated',
  targetKind: 'user',
  targetId: 'someone',
  targetLabel: 'someone@acme.example',
  companyId,
  before: { accessLevel: 1 },
  after: { accessLevel: 2 },
  createdAt: at('2026-11-01T12:00:00Z'),
})

suite.seed(`${AUDIT_EVENTS_COLLECTION}/acme-event`, event('acme'))
suite.seed(`${AUDIT_EVENTS_COLLECTION}/platform-event`, event(null))

function cases(): RuleCase[] {
  const out: RuleCase[] = []
  for (const p of principals) {
    const everything = page('/admin/app/users', p)
    const ofAcme = everything || (page('/admin/company/manage-users', p) && p.companies.includes('acme'))
    out.push(ruleCase(p, 'gets an event of acme', ofAcme, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/acme-event`))))
    out.push(ruleCase(p, 'gets a platform-wide event', everything, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/platform-event`))))
    out.push(
      ruleCase(p, "lists acme's events", ofAcme, (db) =>
        getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('companyId', '==', 'acme'))),
      ),
    )
    out.push(ruleCase(p, 'lists every event', everything, (db) => getDocs(collection(db, AUDIT_EVENTS_COLLECTION))))
    out.push(ruleCase(p, 'creates an event', false, (db) => addDoc(collection(db, AUDIT_EVENTS_COLLECTION), event('acme'))))
    out.push(
      ruleCase(p, 'changes an event', false, (db) =>
        updateDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/acme-event`), { action: 'user.deleted' }),
      ),
    )
    out.push(ruleCase(p, 'deletes an event', false, (db) => deleteDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/acme-event`))))
  }
  return out
}

describe('firestore.rules: audit_events', () => suite.run(cases()))
