// The administration's demo data: each company's scan scope, the service catalogue, Acme's DAST keys
// in every state (active and used, active and unused, expired, revoked) and an audit history.
// Fixed ids, keys and times, so every run writes the same documents.
import { readFileSync } from 'node:fs'
import { createHmac } from 'node:crypto'
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { AUDIT_EVENTS_COLLECTION, newAuditEventDocument, type AuditEventInput } from '#domain/audit-events.ts'
import { DAST_KEY_PREFIX, dastKeyChecksum, dastKeyHashPath, dastKeyPath, newDastKeyDocument } from '#domain/dast-keys.ts'
import { scanScopePath, type ScopeEntry } from '#domain/scan-scope.ts'
import { defaultCatalogueEntry, servicePath } from '#domain/service-catalogue.ts'
import { services, type ServiceId } from '#domain/services.ts'
import { ROOT } from '../firebase/env.ts'

export const DEMO_SCAN_SCOPES: Record<string, ScopeEntry[]> = {
  acme: [
    { kind: 'domain', value: 'acme.example' },
    { kind: 'host', value: '*.acme-cdn.example' },
    { kind: 'cidr', value: '198.51.100.0/24' },
    { kind: 'cidr', value: '2001:db8:ac::/48' },
    { kind: 'url', value: 'https://portal.partner.example/acme/' },
  ],
  globex: [
    { kind: 'domain', value: 'globex.example' },
    { kind: 'ip', value: '203.0.113.10' },
  ],
  initech: [{ kind: 'domain', value: 'initech.example' }],
  umbrella: [],
  wayne: [
    { kind: 'domain', value: 'wayne.example' },
    { kind: 'cidr', value: '192.0.2.0/25' },
  ],
}

const DESCRIPTIONS: Record<ServiceId, string> = {
  projectmariana: 'Continuous discovery of the internet-facing assets a company owns, and what they expose.',
  password_cracking: 'Audits of Active Directory password hashes: weak, reused and cracked passwords.',
  dast: 'Dynamic testing of web applications and APIs, scheduled or triggered from CI pipelines.',
  network: 'Scans of hosts and networks for open services and known vulnerabilities.',
  cloud: 'Reviews of cloud accounts against security benchmarks.',
}

// New companies get attack surface and DAST to start with.
const DEFAULT_ON: readonly ServiceId[] = ['projectmariana', 'dast']

const at = (iso: string) => Timestamp.fromDate(new Date(iso))

/** The day each demo key was made: the 15th of July, August, September and October 2026. */
const madeOn = (n: number) => `2026-${String(7 + n).padStart(2, '0')}-15T10:00:00Z`

/** A fixed demo key: its id, the whole key (never stored) and its state. */
function demoKey(id: string, secretPart: string) {
  const body = `${DAST_KEY_PREFIX}${id}${secretPart}`
  return { id, token: body + dastKeyChecksum(body) }
}

export const DEMO_DAST_KEYS = [
  {
    ...demoKey('DemoActiveUsed01', 'a'.repeat(40)),
    name: 'GitHub Actions: main',
    expiresAt: '2027-08-01T00:00:00Z',
    used: true,
    revoked: false,
  },
  {
    ...demoKey('DemoActiveNew002', 'b'.repeat(40)),
    name: 'GitLab CI: staging',
    expiresAt: '2027-02-01T00:00:00Z',
    used: false,
    revoked: false,
  },
  {
    ...demoKey('DemoExpired00003', 'c'.repeat(40)),
    name: 'Jenkins: legacy',
    expiresAt: '2026-10-01T00:00:00Z',
    used: true,
    revoked: false,
  },
  {
    ...demoKey('DemoRevoked00004', 'd'.repeat(40)),
    name: 'Old laptop script',
    expiresAt: '2027-05-01T00:00:00Z',
    used: true,
    revoked: true,
  },
]

/** The functions' secret, from the same file the Functions emulator reads, so the demo keys verify. */
function dastKeySecret(): string {
  const match = /^DAST_KEY_SECRET=(.+)$/m.exec(readFileSync(`${ROOT}/functions/.env.demo-sectest`, 'utf8'))
  if (!match) throw new Error('DAST_KEY_SECRET is missing from functions/.env.demo-sectest')
  return match[1]!.trim()
}

const platform = { uid: 'demo-platform-admin', email: 'platform@sectest.example' }
const companyAdmin = { uid: 'demo-company-admin', email: 'admin@acme.example' }
const senior = { uid: 'demo-senior-analyst', email: 'senior@sectest.example' }

export const DEMO_AUDIT_HISTORY: (AuditEventInput & { at: string })[] = [
  {
    at: '2026-03-02T09:15:00Z',
    actor: senior,
    action: 'company.created',
    target: { kind: 'company', id: 'wayne', label: 'Wayne Enterprises' },
    companyId: 'wayne',
    before: null,
    after: { companyName: 'Wayne Enterprises', scanScope: DEMO_SCAN_SCOPES.wayne },
  },
  {
    at: '2026-06-11T14:02:00Z',
    actor: platform,
    action: 'company.updated',
    target: { kind: 'company', id: 'acme', label: 'Acme Corporation' },
    companyId: 'acme',
    before: { enableDastTriggering: false },
    after: { enableDastTriggering: true },
  },
  {
    at: '2026-07-01T08:30:00Z',
    actor: platform,
    action: 'service.updated',
    target: { kind: 'service', id: 'dast', label: 'DAST' },
    companyId: null,
    before: { defaultEnabled: false },
    after: { defaultEnabled: true },
  },
  ...DEMO_DAST_KEYS.map((key, n) => ({
    at: madeOn(n),
    actor: companyAdmin,
    action: 'dast_key.created' as const,
    target: { kind: 'dast_key' as const, id: key.id, label: key.name },
    companyId: 'acme',
    before: null,
    after: { name: key.name, allowedTargets: ['app.acme.example'], expiresAt: key.expiresAt },
  })),
  {
    at: '2026-11-02T16:45:00Z',
    actor: companyAdmin,
    action: 'dast_key.revoked',
    target: { kind: 'dast_key', id: 'DemoRevoked00004', label: 'Old laptop script' },
    companyId: 'acme',
    before: { revokedAt: null },
    after: { revokedBy: companyAdmin.email },
  },
  {
    at: '2026-11-10T11:20:00Z',
    actor: senior,
    action: 'company.updated',
    target: { kind: 'company', id: 'globex', label: 'Globex Industries' },
    companyId: 'globex',
    before: { scanScope: [{ kind: 'domain', value: 'globex.example' }] },
    after: { scanScope: DEMO_SCAN_SCOPES.globex },
  },
]

/** Writes the administration's demo documents (set whole, so reruns leave the same documents). */
export async function seedAdminOrg(db: Firestore): Promise<void> {
  const secret = dastKeySecret()
  const batch = db.batch()
  const stamp = { updatedAt: at('2026-07-01T08:30:00Z'), updatedBy: platform.email }
  for (const [slug, entries] of Object.entries(DEMO_SCAN_SCOPES)) batch.set(db.doc(scanScopePath(slug)), { entries, ...stamp })
  for (const { id } of services) {
    const { id: _id, ...entry } = defaultCatalogueEntry(id)
    batch.set(db.doc(servicePath(id)), { ...entry, description: DESCRIPTIONS[id], defaultEnabled: DEFAULT_ON.includes(id), ...stamp })
  }
  DEMO_DAST_KEYS.forEach((key, n) => {
    batch.set(db.doc(dastKeyPath(key.id)), {
      ...newDastKeyDocument({
        id: key.id,
        company: 'acme',
        name: key.name,
        last4: key.token.slice(-4),
        allowedTargets: ['app.acme.example', 'https://portal.partner.example/acme/'],
        expiresAt: at(key.expiresAt),
        createdAt: at(madeOn(n)),
        createdBy: companyAdmin.email,
      }),
      ...(key.used ? { lastUsedAt: at('2026-09-30T22:10:00Z'), lastUsedIp: '198.51.100.23' } : {}),
      ...(key.revoked ? { revokedAt: at('2026-11-02T16:45:00Z'), revokedBy: companyAdmin.email } : {}),
    })
    batch.set(db.doc(dastKeyHashPath(key.id)), { hash: createHmac('sha256', secret).update(key.token).digest('hex'), company: 'acme' })
  })
  DEMO_AUDIT_HISTORY.forEach((event, n) => {
    batch.set(db.doc(`${AUDIT_EVENTS_COLLECTION}/seed-${String(n + 1).padStart(3, '0')}`), newAuditEventDocument(event, at(event.at)))
  })
  await batch.commit()
}
