// audit_events against app/domain/access.ts (maySeeAuditEvent): platform admins read every event;
// senior analysts (7 and 8) every company's and the fleet's, asking for audience == 'analysts' as
// the pages do; a company's admins that company's, asking for one company at a time; nobody writes
// one from a browser (the functions write each with its change).
import { addDoc, collection, deleteDoc, doc, getDoc, getDocs, query, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { maySeeAuditEvent } from '#domain/access.ts'
import { AUDIT_EVENTS_COLLECTION, newAuditEventDocument, type AuditEventInput } from '#domain/audit-events.ts'
import { tokenClaims } from '../builders.ts'
import { at, demo, principals, ruleCase, rulesSuite, usable, type Principal, type RuleCase } from './rules-harness.ts'

// A senior analyst at level 8: the matrix's demo senior is at 7.
const level8: Principal = {
  ...demo[7],
  name: 'senior analyst (8, all)',
  uid: 'rules-senior-8',
  claims: tokenClaims(8, { userType: 'analyst' }),
  accessDoc: demo[7].accessDoc && { ...demo[7].accessDoc, claims: tokenClaims(8, { userType: 'analyst' }) },
  access: { ...demo[7].access, accessLevel: 8 },
}
const everyone = [...principals, level8]

const suite = rulesSuite('audit events')
suite.seedPrincipals(everyone)

const input = (companyId: string | null, target: AuditEventInput['target']): AuditEventInput => ({
  actor: { uid: 'demo-platform-admin', email: 'platform@sectest.example' },
  action: target.kind === 'location' ? 'location.created' : 'user.updated',
  target,
  companyId,
  before: { accessLevel: 1 },
  after: { accessLevel: 2 },
})
const events = {
  acme: input('acme', { kind: 'user', id: 'someone', label: 'someone@acme.example' }),
  platform: input(null, { kind: 'user', id: 'someone-else', label: 'someone@elsewhere.example' }),
  fleet: input(null, { kind: 'location', id: 'loc', label: 'Local' }),
}
for (const [id, event] of Object.entries(events)) {
  suite.seed(`${AUDIT_EVENTS_COLLECTION}/${id}-event`, newAuditEventDocument(event, at('2026-11-01T12:00:00Z')))
}

const sees = (p: Principal, event: AuditEventInput) =>
  usable(p) &&
  maySeeAuditEvent(p.access, { companyId: event.companyId, audience: newAuditEventDocument(event, null).audience }, p.companies)

function cases(): RuleCase[] {
  const out: RuleCase[] = []
  for (const p of everyone) {
    const ofAcme = sees(p, events.acme)
    const ofFleet = sees(p, events.fleet)
    const everything = sees(p, events.platform)
    const member = p.companies.includes('acme')
    out.push(ruleCase(p, 'gets an event of acme', ofAcme, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/acme-event`))))
    out.push(ruleCase(p, "gets an event of the fleet's", ofFleet, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/fleet-event`))))
    out.push(ruleCase(p, 'gets a platform-wide event', everything, (db) => getDoc(doc(db, `${AUDIT_EVENTS_COLLECTION}/platform-event`))))
    // The company page's query: acme's events of the analysts' audience.
    out.push(
      ruleCase(p, "lists acme's events as the company page asks", ofAcme, (db) =>
        getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('companyId', '==', 'acme'), where('audience', '==', 'analysts'))),
      ),
    )
    // Without the audience, only those who read acme's events by membership or as platform admins.
    out.push(
      ruleCase(p, "lists acme's events without the audience", everything || (ofAcme && member), (db) =>
        getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('companyId', '==', 'acme'))),
      ),
    )
    // The senior analysts' feed on /admin: every company's and the fleet's.
    out.push(
      ruleCase(p, "lists the analysts' events", everything || ofFleet, (db) =>
        getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('audience', '==', 'analysts'))),
      ),
    )
    out.push(
      ruleCase(p, 'lists the platform-wide events', everything, (db) =>
        getDocs(query(collection(db, AUDIT_EVENTS_COLLECTION), where('audience', '==', 'platform'))),
      ),
    )
    out.push(ruleCase(p, 'lists every event', everything, (db) => getDocs(collection(db, AUDIT_EVENTS_COLLECTION))))
    out.push(
      ruleCase(p, 'creates an event', false, (db) =>
        addDoc(collection(db, AUDIT_EVENTS_COLLECTION), newAuditEventDocument(events.acme, at('2026-11-01T12:00:00Z'))),
      ),
    )
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
