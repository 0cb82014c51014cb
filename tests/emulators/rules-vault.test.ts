// Vault links and requests (ciphertext only, their author's alone) and the collections only
// functions touch, against app/domain/access.ts. Share links are written by the functions alone and
// their sealed part is read by no client: recipients open links only through claimVaultLink.
import {
  addDoc,
  collection,
  deleteDoc,
  doc,
  getDoc,
  getDocs,
  query,
  serverTimestamp,
  setDoc,
  updateDoc,
  where,
} from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { pageRules } from '#domain/access.ts'
import { EMAIL_KEYS_COLLECTION } from '#domain/email-keys.ts'
import { SUPPORT_MESSAGES_COLLECTION } from '#domain/support.ts'
import { at, demo, fresh, principals, ruleCase, rulesSuite, type Principal, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('vault and functions-only')
suite.seedPrincipals(principals)

const page = (path: string, p: Principal) => pageRules[path]?.({ access: p.access, company: null }) ?? false
const analyst = demo[5]
const senior = demo[7]
const nextWeek = () => at(new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString())

const sealed = (uid: string) => ({
  ciphertext: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJ==',
  iv: 'AAECAwQFBgcICQoL',
  createdBy: uid,
  createdAt: serverTimestamp(),
  expiresAt: nextWeek(),
})
const stored = (uid: string) => ({ ...sealed(uid), createdAt: at('2025-09-01T12:00:00Z') })

/** A share link's record as createVaultLink writes it (no ciphertext: that sits in its sealed part). */
const linkRecord = (uid: string) => ({
  createdBy: uid,
  company: 'acme',
  createdAt: at('2025-09-01T12:00:00Z'),
  expiresAt: nextWeek(),
  maxViews: 1,
  views: 0,
  state: 'active',
  passphrase: false,
  recipient: null,
  findTokenHash: 'A'.repeat(43),
})
const sealedPart = {
  openTokenHash: 'B'.repeat(43),
  kdf: null,
  ciphertext: 'q83vEjRWeJq83vEjRWeJ',
  iv: 'AAECAwQFBgcICQoL',
  expiresAt: nextWeek(),
}

function shareLinkCases(): RuleCase[] {
  const cases: RuleCase[] = []
  const kind = 'vault_links'
  for (const p of principals) {
    const self = p.uid ?? 'nobody'
    const other = p.uid === senior.uid ? analyst : senior
    const mine = fresh(kind)
    const theirs = fresh(kind)
    suite.seed(`${kind}/${mine}`, linkRecord(self))
    suite.seed(`${kind}/${mine}/vault_sealed/content`, sealedPart)
    suite.seed(`${kind}/${theirs}`, linkRecord(other.uid ?? ''))
    const allowed = page('/analyst/vault/link', p)
    cases.push(ruleCase(p, 'gets its own share link', allowed, (db) => getDoc(doc(db, `${kind}/${mine}`))))
    cases.push(
      ruleCase(p, 'gets the sealed part of its own share link', false, (db) => getDoc(doc(db, `${kind}/${mine}/vault_sealed/content`))),
    )
    cases.push(ruleCase(p, `gets a share link of ${other.name}`, false, (db) => getDoc(doc(db, `${kind}/${theirs}`))))
    cases.push(
      ruleCase(p, 'lists share links where createdBy == its uid', allowed, (db) =>
        getDocs(query(collection(db, kind), where('createdBy', '==', self))),
      ),
    )
    cases.push(ruleCase(p, 'lists every share link', false, (db) => getDocs(collection(db, kind))))
    cases.push(ruleCase(p, 'creates a share link', false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), linkRecord(self))))
    cases.push(ruleCase(p, 'updates its own share link', false, (db) => updateDoc(doc(db, `${kind}/${mine}`), { maxViews: 10 })))
    cases.push(ruleCase(p, 'deletes its own share link', false, (db) => deleteDoc(doc(db, `${kind}/${mine}`))))
    cases.push(
      ruleCase(p, 'writes a sealed part', false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}/vault_sealed/content`), sealedPart)),
    )
  }
  return cases
}

function vaultCases(kind: 'vault_requests'): RuleCase[] {
  const cases: RuleCase[] = []
  const path = '/analyst/vault/request'
  for (const p of principals) {
    const self = p.uid ?? 'nobody'
    const other = p.uid === senior.uid ? analyst : senior
    const mine = fresh(kind)
    const theirs = fresh(kind)
    suite.seed(`${kind}/${mine}`, stored(self))
    suite.seed(`${kind}/${theirs}`, stored(other.uid ?? ''))
    const allowed = page(path, p)
    cases.push(ruleCase(p, `gets its own ${kind}`, allowed, (db) => getDoc(doc(db, `${kind}/${mine}`))))
    cases.push(ruleCase(p, `gets a ${kind} of ${other.name}`, false, (db) => getDoc(doc(db, `${kind}/${theirs}`))))
    cases.push(
      ruleCase(p, `lists ${kind} where createdBy == its uid`, allowed, (db) =>
        getDocs(query(collection(db, kind), where('createdBy', '==', self))),
      ),
    )
    cases.push(ruleCase(p, `lists every ${kind}`, false, (db) => getDocs(collection(db, kind))))
    cases.push(ruleCase(p, `creates a ${kind}`, allowed, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), sealed(self))))
    cases.push(
      ruleCase(p, `creates a ${kind} in the name of ${other.name}`, false, (db) =>
        setDoc(doc(db, `${kind}/${fresh(kind)}`), sealed(other.uid ?? '')),
      ),
    )
    cases.push(ruleCase(p, `updates its own ${kind}`, false, (db) => updateDoc(doc(db, `${kind}/${mine}`), { expiresAt: nextWeek() })))
    const deleted = fresh(kind)
    suite.seed(`${kind}/${deleted}`, stored(self))
    cases.push(ruleCase(p, `deletes its own ${kind}`, allowed, (db) => deleteDoc(doc(db, `${kind}/${deleted}`))))
    cases.push(ruleCase(p, `deletes a ${kind} of ${other.name}`, false, (db) => deleteDoc(doc(db, `${kind}/${theirs}`))))
  }

  const self = analyst.uid ?? ''
  const forged: [string, Record<string, unknown>, boolean][] = [
    ['a plaintext field', { ...sealed(self), plaintext: 'hunter2' }, false],
    ['a secret in a note', { ...sealed(self), note: 'the password is hunter2' }, false],
    ['an empty ciphertext', { ...sealed(self), ciphertext: '' }, false],
    ['a ciphertext that is not a string', { ...sealed(self), ciphertext: { secret: 'hunter2' } }, false],
    ['no iv', { ...sealed(self), iv: undefined }, false],
    ['a createdAt that is not the request time', { ...sealed(self), createdAt: at('2025-01-01T00:00:00Z') }, false],
    ['an expiry in the past', { ...sealed(self), expiresAt: at('2025-01-01T00:00:00Z') }, false],
  ]
  for (const [what, data, allowed] of forged) {
    const clean = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined))
    cases.push(ruleCase(analyst, `creates a ${kind} with ${what}`, allowed, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), clean)))
  }
  return cases
}

const functionsOnly = {
  [EMAIL_KEYS_COLLECTION]: {
    match: '@rules.example',
    company: 'acme',
    accessLevel: 1,
    userType: 'client',
    createdAt: at('2025-09-01T12:00:00Z'),
    createdBy: 'platform@sectest.example',
  },
  [SUPPORT_MESSAGES_COLLECTION]: {
    message: 'Help',
    request_type: 'question',
    createdByUid: 'demo-client-viewer',
    createdAt: at('2025-09-01T12:00:00Z'),
  },
  rate_limits: { kind: 'sign-in-address', count: 1, windowStart: at('2025-09-01T12:00:00Z'), expiresAt: at('2025-09-01T12:15:00Z') },
  // Nothing else exists for clients either.
  elsewhere: { anything: true },
} as const

function functionsOnlyCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const [name, data] of Object.entries(functionsOnly)) {
    suite.seed(`${name}/one`, data)
    for (const p of principals) {
      // Platform admins read the email keys; no one else reads, and no client writes.
      const reads = name === EMAIL_KEYS_COLLECTION && page('/admin/keys_email', p)
      cases.push(ruleCase(p, `gets ${name}/one`, reads, (db) => getDoc(doc(db, `${name}/one`))))
      cases.push(ruleCase(p, `lists ${name}`, reads, (db) => getDocs(collection(db, name))))
      cases.push(ruleCase(p, `creates in ${name}`, false, (db) => addDoc(collection(db, name), data)))
      cases.push(ruleCase(p, `updates ${name}/one`, false, (db) => updateDoc(doc(db, `${name}/one`), { forged: true })))
      cases.push(ruleCase(p, `deletes ${name}/one`, false, (db) => deleteDoc(doc(db, `${name}/one`))))
    }
  }
  return cases
}

describe('firestore.rules: vault_links', () => suite.run(shareLinkCases()))
describe('firestore.rules: vault_requests', () => suite.run(vaultCases('vault_requests')))
describe('firestore.rules: functions only', () => suite.run(functionsOnlyCases()))
