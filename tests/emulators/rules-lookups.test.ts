// The scan comparison's reads at the size real data reaches, within Firestore's limit on document
// accesses per request. The emulator counts each id of a `documentId() in` query as one access of
// the request, besides the rules' own lookups (exists() and get() of users_access and of the
// company), and refuses more than 20 ("Cannot call firestore functions more than 20 during the
// rules evaluation"); production allows 10 per query. So the ids per read and the rules' lookups
// must fit in 10 together.
import { collection, documentId, getDocs, query, where } from 'firebase/firestore/lite'
import { describe, expect } from 'vitest'
import { companyPath } from '#domain/companies.ts'
import { findingsPath } from '#domain/findings.ts'
import { CANDIDATES_PER_READ, reopenCandidates } from '#domain/scan-comparison.ts'
import { scanMembersFromDocument, scanMembersPath, type ScanMembers } from '#domain/scans.ts'
import { DEMO_COMPANIES } from '../../emulators/seed/demo-accounts.ts'
import { findingDocument } from '../builders.ts'
import { demo, principals, ruleCase, rulesSuite, type Db, type RuleCase } from './rules-harness.ts'

const suite = rulesSuite('lookups')
suite.seedPrincipals(principals)
for (const company of DEMO_COMPANIES) suite.seed(companyPath(company.slug), { ...company })

const COMPANY = 'acme'
const SERVICE = 'network'
/** The emulator's limit per request, and production's per query. */
const EMULATOR_ACCESSES = 20
const QUERY_ACCESSES = 10
const DAY = 86_400_000
const baseStart = Date.UTC(2026, 5, 1)

// Two scans of a year's network findings: 600 in both, 240 only in the target (half of them first
// seen before the base: reopened), 60 only in the base. Members split over documents as stored.
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`)
const both = ids('lookups-both', 600)
const onlyTarget = ids('lookups-target', 240)
const onlyBase = ids('lookups-base', 60)
const entries = (list: string[]) => list.map((id) => ({ id, severity: 'high' as const }))
const scanMembers = { base: [...both, ...onlyBase], target: [...both, ...onlyTarget] }
for (const [name, members] of Object.entries(scanMembers)) {
  const scanId = `lookups-${name}`
  suite.seed(`${companyPath(COMPANY)}/scans/${scanId}`, {
    service: SERVICE,
    state: 'published',
    title: `${name} scan`,
    scopeKey: 'lookups',
    startedAt: name === 'base' ? baseStart : baseStart + 30 * DAY,
  })
  for (let n = 0; n * 250 < members.length; n++)
    suite.seed(`${scanMembersPath(COMPANY, scanId)}/${n}`, { findings: entries(members.slice(n * 250, (n + 1) * 250)), assets: [] })
}
for (const [i, id] of [...both, ...onlyTarget, ...onlyBase].entries())
  suite.seed(`${findingsPath(COMPANY)}/${id}`, { ...findingDocument(SERVICE, { firstSeenAt: baseStart + (i % 2 ? -DAY : DAY) }) })

async function members(db: Db, scanId: string): Promise<ScanMembers> {
  const snapshot = await getDocs(collection(db, scanMembersPath(COMPANY, scanId)))
  const out: ScanMembers = { findings: [], assets: [] }
  for (const d of snapshot.docs) out.findings.push(...scanMembersFromDocument(d.data()).findings)
  return out
}

// One read of first-seen times, as the comparison makes it (app/features/reports/data/reports-live.ts).
const readFindings = (db: Db, chunk: string[]) =>
  getDocs(query(collection(db, findingsPath(COMPANY)), where('service', '==', SERVICE), where(documentId(), 'in', chunk)))

// The readers of acme's network results who reported it: a viewer (service right) and a company admin.
const readers = [demo[1], demo[3]]

function comparisonCases(): RuleCase[] {
  return readers.map((p) =>
    ruleCase(p, 'compares two scans of a year of network findings', true, async (db) => {
      const [base, target] = await Promise.all([members(db, 'lookups-base'), members(db, 'lookups-target')])
      expect(target.findings).toHaveLength(both.length + onlyTarget.length)
      const candidates = reopenCandidates(base, target)
      expect(candidates).toEqual(onlyTarget)
      let read = 0
      for (let i = 0; i < candidates.length; i += CANDIDATES_PER_READ)
        read += (await readFindings(db, candidates.slice(i, i + CANDIDATES_PER_READ))).size
      expect(read).toBe(onlyTarget.length)
    }),
  )
}

// The rules' lookups for one read of findings by id: the emulator refuses a read once its ids and
// the lookups exceed its limit, so the most ids it accepts tell how many lookups the rules made.
async function accepts(db: Db, count: number): Promise<boolean> {
  try {
    await readFindings(db, both.slice(0, count))
    return true
  } catch (error) {
    if ((error as { code?: string }).code === 'permission-denied') return false
    throw error
  }
}

function lookupCases(): RuleCase[] {
  return readers.map((p) =>
    ruleCase(p, 'reads findings by id within the lookups of one query', true, async (db) => {
      let low = 0
      let high = EMULATOR_ACCESSES
      while (low < high) {
        const mid = Math.ceil((low + high) / 2)
        if (await accepts(db, mid)) low = mid
        else high = mid - 1
      }
      const lookups = EMULATOR_ACCESSES - low
      // exists() and get() of users_access and of the company, each once however often the rules ask.
      expect(lookups).toBeLessThanOrEqual(4)
      expect(CANDIDATES_PER_READ + lookups).toBeLessThanOrEqual(QUERY_ACCESSES)
    }),
  )
}

describe('firestore.rules: the scan comparison at full size', () => suite.run(comparisonCases()))
describe('firestore.rules: lookups per read', () => suite.run(lookupCases()))
