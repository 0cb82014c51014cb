// The draft review's findings as the analyst's browser reads them (analyst-live.ts, the web SDK
// signed in as a senior analyst, through the rules): a page at a time, the most severe first,
// every finding reached once however many pages there are, narrowed by query conditions, with
// totals counted on the server that follow the analysts' changes.
import { randomUUID } from 'node:crypto'
import { Timestamp } from 'firebase-admin/firestore'
import { signOut } from 'firebase/auth'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import { companyPath } from '#domain/companies.ts'
import { draftFindingDocument, draftFindingPath, type StoredDraftFinding } from '#domain/scan-drafts.ts'
import { scanPath } from '#domain/scans.ts'
import { storedTimes } from '#domain/stored.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { clientBoot } from '~/core/client-boot'
import { firebaseAuth } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import type { Capped } from '~/core/watch-query'
import { ALL_DRAFT_FINDINGS, type DraftFilter } from '~/features/analyst/service-page/draft-filter'
import { watchDraftFindings, watchMergedFindings, type DraftFindingsView } from '~/features/analyst/service-page/analyst-live'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { signInWithClaims } from './callable-client.ts'

const SLUG = `draft-${randomUUID().slice(0, 8)}`
const SCAN = 'imp-draft-review'
const PAGE = 100

/** 250 findings: 130 high (more than a page), 70 medium, 50 low, no critical or informational ones. */
const severityOf = (i: number): Severity => (i < 130 ? 'high' : i < 200 ? 'medium' : 'low')
const drafts = Array.from({ length: 250 }, (_, i) => {
  const document: StoredDraftFinding = {
    ...draftFindingDocument(
      {
        ruleId: `rule-${i % 7}`,
        title: `Finding ${i}`,
        severity: severityOf(i),
        target: { kind: 'url', url: `https://shop.example/page/${i}` },
        raw: {},
      },
      'a'.repeat(64),
      'import@sectest.example',
      Date.UTC(2026, 0, 10),
    ),
    // Every third one mapped, every tenth a false positive, every 25th merged into the first.
    templateSlug: i % 3 === 0 ? 'xss' : null,
    templateSource: i % 3 === 0 ? 'mapping' : 'none',
    falsePositive: i % 10 === 5,
    mergedInto: i % 25 === 24 ? 'f000' : null,
  }
  return { id: `f${String(i).padStart(3, '0')}`, ...document }
})
const unmapped = (f: StoredDraftFinding) => !f.templateSlug && !f.falsePositive && !f.mergedInto
/** The review's order: the most severe first, by id within a severity. */
const inOrder = (list: typeof drafts) =>
  [...list]
    .sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((f) => f.id)

let admin: AdminClients

beforeAll(async () => {
  admin = connectToEmulators()
  // The app's Firebase client starts as it does in a browser: from the settings the page rendered with.
  vi.stubGlobal('window', globalThis)
  clientBoot.init({
    session: null,
    workspace: null,
    firebase: {
      projectId: PROJECT_ID,
      apiKey: 'fake-api-key',
      authDomain: `${PROJECT_ID}.firebaseapp.com`,
      emulators: { auth: `${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`, firestore: `${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}` },
    },
  })
  vi.unstubAllGlobals()
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableViewResultsNetwork: true }))
  // The rules read the scan's service; the listener reads only its draft findings.
  await admin.db.doc(scanPath(SLUG, SCAN)).set({ service: 'network', state: 'draft', title: 'Draft under review' })
  const writer = admin.db.bulkWriter()
  for (const { id, ...document } of drafts)
    void writer.set(admin.db.doc(draftFindingPath(SLUG, SCAN, id)), storedTimes(document, Timestamp.fromMillis) as Record<string, unknown>)
  await writer.close()
  const claims = tokenClaims(LEVEL.seniorAnalyst)
  const { uid } = await signInWithClaims({ auth: firebaseAuth() }, admin.auth, { ...claims })
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies: [], servicesEnabled: [], servicesManaged: [] })
})

afterAll(async () => {
  await signOut(firebaseAuth())
  await disconnect(admin)
})

/** Follows the findings the way the page does, showing more until there is no more. */
function follow(filter: DraftFilter) {
  let last: DraftFindingsView | null = null
  let failure: Error | null = null
  const watch: Watch<DraftFindingsView> = watchDraftFindings(SLUG, SCAN, filter, PAGE)
  const stop = watch(
    (value) => (last = value),
    (error) => (failure = error),
  )
  const settled = async () => {
    await vi.waitFor(
      () => {
        if (failure) throw new Error(`stopped: ${String(failure)}`)
        expect(last?.loading).toBe(false)
      },
      { timeout: 20_000 },
    )
    return last!
  }
  return {
    stop,
    settled,
    current: () => last,
    /** Every finding the list reaches, a page at a time, and how many pages that took. */
    async all() {
      let pages = 1
      for (let view = await settled(); view.more; view = await settled()) {
        const before = view.items.length
        view.more()
        pages++
        await vi.waitFor(() => expect(last!.items.length).toBeGreaterThan(before), { timeout: 20_000 })
      }
      return { view: await settled(), pages }
    },
  }
}

describe('the draft review', () => {
  it('reaches every finding once, a page at a time, the most severe first, with exact totals', async () => {
    const list = follow(ALL_DRAFT_FINDINGS)
    try {
      const first = await list.settled()
      expect(first.items).toHaveLength(PAGE)
      expect(first.totals).toEqual({ all: 250, unmapped: drafts.filter(unmapped).length, matching: 250 })
      const { view, pages } = await list.all()
      expect(view.items.map((f) => f.id)).toEqual(inOrder(drafts))
      expect(pages).toBe(3)
      expect(view.more).toBeNull()
    } finally {
      list.stop()
    }
  })

  it('narrows on the server: one severity, those without a template, one rule', async () => {
    const filter: DraftFilter = { show: 'unmapped', severity: 'high', ruleId: 'rule-2' }
    const expected = drafts.filter((f) => unmapped(f) && f.severity === 'high' && f.ruleId === 'rule-2')
    const list = follow(filter)
    try {
      const { view } = await list.all()
      expect(view.items.map((f) => f.id)).toEqual(inOrder(expected))
      expect(view.totals).toEqual({ all: 250, unmapped: drafts.filter(unmapped).length, matching: expected.length })
    } finally {
      list.stop()
    }
  })

  it('counts again when a listed finding changes', async () => {
    const list = follow({ ...ALL_DRAFT_FINDINGS, show: 'false_positive' })
    try {
      const before = await list.settled()
      expect(before.totals.matching).toBe(drafts.filter((f) => f.falsePositive).length)
      const [shown] = before.items
      // An analyst marks a shown false positive as none (a review writes the finding, with its time).
      await admin.db
        .doc(draftFindingPath(SLUG, SCAN, shown!.id))
        .update({ falsePositive: false, updatedAt: Timestamp.fromMillis(Date.UTC(2026, 0, 11)) })
      await vi.waitFor(() => expect(list.current()?.totals.matching).toBe(before.totals.matching - 1), { timeout: 20_000 })
      const after = await list.settled()
      expect(after.items.map((f) => f.id)).not.toContain(shown!.id)
      expect(after.totals.unmapped).toBe(before.totals.unmapped + (shown!.templateSlug || shown!.mergedInto ? 0 : 1))
    } finally {
      list.stop()
    }
  })

  it("lists the findings merged into one for its detail, through the analysts' rules", async () => {
    let last: Capped<StoredDraftFinding & { id: string }> | null = null
    const stop = watchMergedFindings(
      SLUG,
      SCAN,
      'f000',
    )(
      (value) => (last = value),
      (error) => {
        throw error
      },
    )
    try {
      await vi.waitFor(() => expect(last).not.toBeNull(), { timeout: 20_000 })
      expect(last!.items.map((f) => f.id)).toEqual(drafts.filter((f) => f.mergedInto === 'f000').map((f) => f.id))
      expect(last!.more).toBe(false)
    } finally {
      stop()
    }
  })
})
