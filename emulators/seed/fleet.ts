// The demo fleet: the "Local" location where `npm run dev` starts its demo agent, and the
// loopback address of the vulnerable app in Acme's scan scope, so a newcomer can queue a real
// scan. Safe to repeat: the location is replaced whole and the scope entry added once.
import type { Firestore } from 'firebase-admin/firestore'
import { companyScopePath, scopeEntriesFromDocument } from '#domain/agent-scope.ts'
import { newEnrolmentToken, sha256Hex } from '#domain/agent-auth.ts'
import { agentEnrolmentPath, agentPath, ENROLMENT_TTL_MS, locationPath, type LocationFields } from '#domain/agents.ts'
import { DEMO_SCAN_SCOPES } from './admin-org.ts'

export const LOCAL_LOCATION_ID = 'local'
export const DEMO_SCOPE_COMPANY = 'acme'
export const LOOPBACK_SCOPE_ENTRY = { kind: 'ip', value: '127.0.0.1' } as const

const LOCAL: LocationFields = {
  name: 'Local',
  country: 'GB',
  region: 'This machine',
  network: 'Loopback only: the demo agent scans 127.0.0.1 and nothing else.',
  egressIps: ['127.0.0.1/32'],
  // This machine serves every demo company; a location inside one client's network would serve that client alone.
  companies: Object.keys(DEMO_SCAN_SCOPES),
}

export async function seedFleet(db: Firestore): Promise<void> {
  await db.doc(locationPath(LOCAL_LOCATION_ID)).set({ ...LOCAL, updatedAt: new Date(Date.UTC(2026, 10, 20)), updatedBy: 'seed' })
  const scopeRef = db.doc(companyScopePath(DEMO_SCOPE_COMPANY))
  const entries = scopeEntriesFromDocument((await scopeRef.get()).data())
  if (!entries.some((e) => e.kind === LOOPBACK_SCOPE_ENTRY.kind && e.value === LOOPBACK_SCOPE_ENTRY.value))
    await scopeRef.set({ entries: [...entries, LOOPBACK_SCOPE_ENTRY] }, { merge: true })
}

export const DEMO_AGENT_ID = 'local-demo'

/**
 * A one-time token for the demo agent, bound to its fixed id so every `npm run dev` enrols the
 * same agent again (its key is new each time: the seed drops the old one).
 */
export async function issueDemoEnrolment(db: Firestore): Promise<string> {
  const now = Date.now()
  await db.doc(agentPath(DEMO_AGENT_ID)).set({
    name: 'Local demo agent',
    locationId: LOCAL_LOCATION_ID,
    state: 'active',
    publicKey: null,
    scanners: [],
    problems: [],
    lastHeartbeatAt: null,
    enrolledAt: new Date(now),
    enrolledBy: 'npm run dev',
  })
  const token = newEnrolmentToken()
  await db.doc(agentEnrolmentPath(await sha256Hex(token))).set({
    locationId: LOCAL_LOCATION_ID,
    agentId: DEMO_AGENT_ID,
    name: 'Local demo agent',
    createdBy: 'npm run dev',
    createdAt: new Date(now),
    expiresAt: new Date(now + ENROLMENT_TTL_MS),
    usedAt: null,
    usedByAgentId: null,
  })
  return token
}
