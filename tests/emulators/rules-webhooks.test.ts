// Webhook endpoints, their signing secrets and their delivery log (decision 0056): a company's
// admins read its endpoints and deliveries, as mayManageWebhooksOf says; nobody reads a secret;
// nobody writes any of them (the functions do).
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where } from 'firebase/firestore/lite'
import { describe } from 'vitest'
import { mayManageWebhooksOf, seesAllCompanies } from '#domain/access.ts'
import { WEBHOOK_DELIVERIES_COLLECTION, WEBHOOK_ENDPOINTS_COLLECTION, WEBHOOK_SECRETS_COLLECTION } from '#domain/webhooks.ts'
import { at, companies, flagsOf, fresh, principals, ruleCase, rulesSuite, selects, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('webhooks')
suite.seedPrincipals(principals)

// Every company's endpoint, its secret and one delivery, as the functions leave them.
for (const slug of companies) {
  suite.seed(`${WEBHOOK_ENDPOINTS_COLLECTION}/hook-${slug}`, {
    company: slug,
    url: 'https://hooks.example.com/in',
    events: ['finding.new'],
    enabled: true,
    createdAt: at('2025-09-01T12:00:00Z'),
    createdBy: 'admin@acme.example',
  })
  suite.seed(`${WEBHOOK_SECRETS_COLLECTION}/hook-${slug}`, { company: slug, secret: `whsec_${'A'.repeat(43)}=`, previous: null })
  suite.seed(`${WEBHOOK_DELIVERIES_COLLECTION}/hook-${slug}_evt`, {
    company: slug,
    endpointId: `hook-${slug}`,
    eventId: 'evt',
    type: 'finding.new',
    body: '{}',
    state: 'delivered',
    createdAt: at('2025-09-01T12:00:00Z'),
  })
}

function cases(): RuleCase[] {
  const out: RuleCase[] = []
  for (const p of principals) {
    for (const slug of companies) {
      const allowed = mayManageWebhooksOf(p.access, flagsOf(slug), selects(p, slug))
      out.push(
        ruleCase(p, `gets the webhook endpoint of ${slug}`, allowed, (db) =>
          getDoc(doc(db, `${WEBHOOK_ENDPOINTS_COLLECTION}/hook-${slug}`)),
        ),
      )
      out.push(
        ruleCase(p, `lists webhook endpoints where company == ${slug}`, allowed, (db) =>
          getDocs(query(collection(db, WEBHOOK_ENDPOINTS_COLLECTION), where('company', '==', slug))),
        ),
      )
      out.push(
        ruleCase(p, `lists the deliveries of ${slug}'s endpoint`, allowed, (db) =>
          getDocs(
            query(collection(db, WEBHOOK_DELIVERIES_COLLECTION), where('company', '==', slug), where('endpointId', '==', `hook-${slug}`)),
          ),
        ),
      )
      out.push(
        ruleCase(p, `gets the signing secret of ${slug}'s endpoint`, false, (db) =>
          getDoc(doc(db, `${WEBHOOK_SECRETS_COLLECTION}/hook-${slug}`)),
        ),
      )
      out.push(
        ruleCase(p, `lists the signing secrets of ${slug}`, false, (db) =>
          getDocs(query(collection(db, WEBHOOK_SECRETS_COLLECTION), where('company', '==', slug))),
        ),
      )
    }
    // Only those who see every company list without naming one; nobody lists a log by endpoint alone.
    out.push(
      ruleCase(p, 'lists every webhook endpoint', seesAllCompanies(p.access), (db) =>
        getDocs(collection(db, WEBHOOK_ENDPOINTS_COLLECTION)),
      ),
    )
    out.push(
      ruleCase(p, 'lists deliveries by endpoint alone', seesAllCompanies(p.access), (db) =>
        getDocs(query(collection(db, WEBHOOK_DELIVERIES_COLLECTION), where('endpointId', '==', 'hook-acme'))),
      ),
    )
    const endpoint = {
      company: 'acme',
      url: 'https://attacker.example/',
      events: ['finding.new'],
      enabled: true,
      createdAt: at('2025-09-02T12:00:00Z'),
    }
    out.push(
      ruleCase(p, 'creates a webhook endpoint', false, (db) =>
        setDoc(doc(db, `${WEBHOOK_ENDPOINTS_COLLECTION}/${fresh('hook')}`), endpoint),
      ),
    )
    out.push(
      ruleCase(p, 'points an endpoint elsewhere', false, (db) =>
        updateDoc(doc(db, `${WEBHOOK_ENDPOINTS_COLLECTION}/hook-acme`), { url: 'https://attacker.example/' }),
      ),
    )
    out.push(ruleCase(p, 'deletes a webhook endpoint', false, (db) => deleteDoc(doc(db, `${WEBHOOK_ENDPOINTS_COLLECTION}/hook-acme`))))
    out.push(
      ruleCase(p, 'writes a signing secret', false, (db) =>
        setDoc(doc(db, `${WEBHOOK_SECRETS_COLLECTION}/hook-acme`), { company: 'acme', secret: 'whsec_forged', previous: null }),
      ),
    )
    out.push(
      ruleCase(p, 'queues a delivery', false, (db) =>
        setDoc(doc(db, `${WEBHOOK_DELIVERIES_COLLECTION}/${fresh('delivery')}`), {
          company: 'acme',
          endpointId: 'hook-acme',
          state: 'pending',
          createdAt: at('2025-09-02T12:00:00Z'),
        }),
      ),
    )
    out.push(
      ruleCase(p, 'marks a delivery delivered', false, (db) =>
        updateDoc(doc(db, `${WEBHOOK_DELIVERIES_COLLECTION}/hook-acme_evt`), { state: 'delivered' }),
      ),
    )
  }
  return out
}

describe('firestore.rules: webhooks', () => suite.run(cases()))
