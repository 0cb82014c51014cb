// Vault links and requests (ciphertext only, their author's alone) and the collections only
// functions touch, against app/domain/access.ts. Share links are written by the functions alone and
// their sealed part is read by no client: recipients open links only through claimVaultLink.
import { addDoc, collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { isEngagementAnalyst, pageRules } from '#domain/access.ts'
import { EMAIL_KEYS_COLLECTION } from '#domain/email-keys.ts'
import { SUPPORT_MESSAGES_COLLECTION } from '#domain/support.ts'
import { at, demo, fresh, principals, ruleCase, rulesSuite, selects, type Principal, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('vault and functions-only')
suite.seedPrincipals(principals)

const page = (path: string, p: Principal) => pageRules[path]?.({ access: p.access, company: null }) ?? false
const analyst = demo[5]
const senior = demo[7]
const nextWeek = () => at(new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString())

/** A vault record as the functions write it (a share link's ciphertext sits in its sealed part). */
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

function vaultCases(kind: 'vault_links' | 'vault_requests'): RuleCase[] {
  const cases: RuleCase[] = []
  const path = kind === 'vault_links' ? '/analyst/vault/link' : '/analyst/vault/request'
  for (const p of principals) {
    const self = p.uid ?? 'nobody'
    const other = p.uid === senior.uid ? analyst : senior
    const mine = fresh(kind)
    const theirs = fresh(kind)
    suite.seed(`${kind}/${mine}`, linkRecord(self))
    suite.seed(`${kind}/${theirs}`, linkRecord(other.uid ?? ''))
    const allowed = page(path, p)
    cases.push(ruleCase(p, `gets its own ${kind}`, allowed, (db) => getDoc(doc(db, `${kind}/${mine}`))))
    cases.push(ruleCase(p, `gets a ${kind} of ${other.name}`, false, (db) => getDoc(doc(db, `${kind}/${theirs}`))))
    cases.push(
      ruleCase(p, `lists ${kind} where createdBy == its uid`, allowed, (db) =>
        getDocs(query(collection(db, kind), where('createdBy', '==', self))),
      ),
    )
    cases.push(ruleCase(p, `lists every ${kind}`, false, (db) => getDocs(collection(db, kind))))
    // Written by the functions only, so every change has its audit event.
    cases.push(ruleCase(p, `creates a ${kind}`, false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), linkRecord(self))))
    cases.push(ruleCase(p, `updates its own ${kind}`, false, (db) => updateDoc(doc(db, `${kind}/${mine}`), { expiresAt: nextWeek() })))
    cases.push(ruleCase(p, `deletes its own ${kind}`, false, (db) => deleteDoc(doc(db, `${kind}/${mine}`))))
    if (kind === 'vault_links') {
      suite.seed(`${kind}/${mine}/vault_sealed/content`, sealedPart)
      cases.push(
        ruleCase(p, 'gets the sealed part of its own share link', false, (db) => getDoc(doc(db, `${kind}/${mine}/vault_sealed/content`))),
      )
      cases.push(
        ruleCase(p, 'writes a sealed part', false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}/vault_sealed/content`), sealedPart)),
      )
    }
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
  call_receipts: {
    uid: 'demo-analyst',
    callable: 'createVaultLink',
    requestHash: '0'.repeat(64),
    answer: { id: 'A'.repeat(22) },
    at: at('2025-09-01T12:00:00Z'),
    purgeAt: at('2025-09-02T12:00:00Z'),
  },
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

/**
 * The files gates of requests and share links: anyone (the Worker's file store, reading signed out)
 * gets one by id; nobody lists or writes.
 */
function gateCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const collectionName of ['vault_request_gates', 'vault_link_gates']) {
    const gate = { filesTokenHash: 'A'.repeat(43), open: true, expiresAt: nextWeek() }
    const id = fresh(collectionName)
    suite.seed(`${collectionName}/${id}`, gate)
    for (const p of principals) {
      cases.push(ruleCase(p, `gets a ${collectionName} gate by id`, true, (db) => getDoc(doc(db, `${collectionName}/${id}`))))
      cases.push(ruleCase(p, `lists the ${collectionName}`, false, (db) => getDocs(collection(db, collectionName))))
      cases.push(
        ruleCase(p, `opens a ${collectionName} gate`, false, (db) => setDoc(doc(db, `${collectionName}/${fresh(collectionName)}`), gate)),
      )
      cases.push(
        ruleCase(p, `updates a ${collectionName} gate`, false, (db) => updateDoc(doc(db, `${collectionName}/${id}`), { open: true })),
      )
    }
  }
  return cases
}

/**
 * Requests shared with a company's engagement (decision 0022): a colleague named in teamUids reads
 * the request's share (vault_request_shares/{id}: its terms and state, no wrapped key, no answer)
 * while they are an analyst of the company (isEngagementAnalyst); one not named, an analyst of
 * another company and a client do not. The request itself, with the asker's wrapped key and the
 * sealed answer, is the asker's alone: a colleague gets the answer only through openVaultRequest.
 * Colleagues' sealed keys and others' vault keys are read by no client.
 */
function teamCases(): RuleCase[] {
  const cases: RuleCase[] = []
  const asker = 'rules-team-asker'
  const secrets = {
    wrappedKey: { ciphertext: 'C'.repeat(64), iv: 'D'.repeat(16), kdf: { salt: 'E'.repeat(22), iterations: 600_000 } },
    answer: { enc: 'F'.repeat(87), ciphertext: 'G'.repeat(40) },
  }
  for (const p of principals) {
    const self = p.uid ?? 'nobody'
    for (const slug of ['acme', 'umbrella']) {
      const shared = fresh('vault_requests')
      const notNamed = fresh('vault_requests')
      const terms = { ...linkRecord(asker), company: slug, team: true }
      suite.seed(`vault_requests/${shared}`, { ...terms, ...secrets, teamUids: ['rules-colleague', self] })
      suite.seed(`vault_request_shares/${shared}`, { ...terms, teamUids: ['rules-colleague', self] })
      suite.seed(`vault_requests/${notNamed}`, { ...terms, ...secrets, teamUids: ['rules-colleague'] })
      suite.seed(`vault_request_shares/${notNamed}`, { ...terms, teamUids: ['rules-colleague'] })
      suite.seed(`vault_requests/${shared}/vault_team_keys/${self}`, { enc: 'A'.repeat(87), ciphertext: 'B'.repeat(64) })
      const engaged = isEngagementAnalyst(p.access, selects(p, slug))
      cases.push(
        ruleCase(p, `gets a ${slug} request shared with it, wrapped key and answer included`, false, (db) =>
          getDoc(doc(db, `vault_requests/${shared}`)),
        ),
      )
      cases.push(
        ruleCase(p, `lists ${slug} requests shared with it, wrapped keys and answers included`, false, (db) =>
          getDocs(query(collection(db, 'vault_requests'), where('teamUids', 'array-contains', self), where('company', '==', slug))),
        ),
      )
      cases.push(
        ruleCase(p, `gets the share of a ${slug} request shared with it`, engaged, (db) =>
          getDoc(doc(db, `vault_request_shares/${shared}`)),
        ),
      )
      cases.push(
        ruleCase(p, `gets the share of a ${slug} request shared with others`, false, (db) =>
          getDoc(doc(db, `vault_request_shares/${notNamed}`)),
        ),
      )
      cases.push(
        ruleCase(p, `lists the shares of ${slug} requests shared with it`, engaged, (db) =>
          getDocs(query(collection(db, 'vault_request_shares'), where('teamUids', 'array-contains', self), where('company', '==', slug))),
        ),
      )
      cases.push(
        ruleCase(p, `writes the share of a ${slug} request`, false, (db) =>
          updateDoc(doc(db, `vault_request_shares/${shared}`), { teamUids: [self, 'rules-intruder'] }),
        ),
      )
      cases.push(
        ruleCase(p, `gets its sealed key of a ${slug} request`, false, (db) =>
          getDoc(doc(db, `vault_requests/${shared}/vault_team_keys/${self}`)),
        ),
      )
    }
    // Only those who see every company may leave the company out.
    cases.push(
      ruleCase(
        p,
        'lists the shares of requests shared with it in every company',
        isEngagementAnalyst(p.access, selects(p, 'no-such-company')),
        (db) => getDocs(query(collection(db, 'vault_request_shares'), where('teamUids', 'array-contains', self))),
      ),
    )
    // Its own vault key is its to read; another analyst's, and any write, are not.
    const key = { publicKey: 'A'.repeat(87), wrappedKey: { ciphertext: 'B'.repeat(64), iv: 'C'.repeat(16) }, name: p.name }
    suite.seed(`vault_keys/${self}`, key)
    suite.seed(`vault_keys/rules-colleague`, key)
    cases.push(ruleCase(p, 'gets its own vault key', page('/analyst/vault/request', p), (db) => getDoc(doc(db, `vault_keys/${self}`))))
    cases.push(ruleCase(p, 'gets a colleague’s vault key', false, (db) => getDoc(doc(db, 'vault_keys/rules-colleague'))))
    cases.push(ruleCase(p, 'lists the vault keys', false, (db) => getDocs(collection(db, 'vault_keys'))))
    cases.push(ruleCase(p, 'writes its own vault key', false, (db) => setDoc(doc(db, `vault_keys/${self}`), key)))
  }
  return cases
}

describe('firestore.rules: vault_links', () => suite.run(vaultCases('vault_links')))
describe('firestore.rules: vault requests shared with the engagement', () => suite.run(teamCases()))
describe('firestore.rules: vault_requests', () => suite.run(vaultCases('vault_requests')))
describe('firestore.rules: functions only', () => suite.run(functionsOnlyCases()))
describe('firestore.rules: vault files gates', () => suite.run(gateCases()))
