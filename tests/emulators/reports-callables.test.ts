// The report callables, called the way the browser calls them: who may move, retest and comment
// on which company's findings; a retest requested by a manager and completed by an analyst; a
// risk acceptance approved and reopened by the sweep; the sweep page by page; and the service
// figures equal to a recount after random moves.
import { randomUUID } from 'node:crypto'
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { FINDING_ACTION_NAMES, RETEST_OUTCOME_ACTIONS } from '#domain/finding-workflow.ts'
import { findingFromDocument, findingPath, findingsPath, type StoredFinding } from '#domain/findings.ts'
import { notificationFromDocument } from '#domain/notifications.ts'
import { retestFromDocument, retestPath, retestsPath } from '#domain/retests.ts'
import {
  findingContribution,
  readServiceStats,
  retestContribution,
  serviceMonthPath,
  serviceStatsPath,
  sumContributions,
} from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { DAY_MS } from '#domain/sla.ts'
import { storedEmail, userAccessPath } from '#domain/users-access.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { startMailCatcher, type MailCatcher } from '../../emulators/mail/mail-catcher.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { applyFindingChanges } from '../../functions/src/reports/finding-store.ts'
import { SWEEP_STATE_PATH, sweepFindings } from '../../functions/src/reports/sweep.ts'
import { companyDocument, findingDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'

const unique = () => randomUUID().slice(0, 8)
const SLUG = `rc-${unique()}`
// Globex's switches: attack surface results, network, cloud stats only.
const STATS_SLUG = `rcs-${unique()}`

let admin: AdminClients
let mail: MailCatcher | undefined
const clients: CallableClient[] = []

interface Person {
  name: string
  uid: string
  email: string
  client: CallableClient
}

async function person(name: string, level: number, companies: string[], servicesEnabled: string[] = []): Promise<Person> {
  const client = connectCallableClient(`reports-${name}`)
  clients.push(client)
  const claims = tokenClaims(level)
  const { uid, email } = await signInWithClaims(client, admin.auth, { ...claims })
  // users_access keeps the address, as every invitation and sign-in writes it (decision 0039).
  await admin.db.doc(userAccessPath(uid)).set({ claims, companies, servicesEnabled, servicesManaged: [], email: storedEmail(email) })
  return { name, uid, email, client }
}

const call = <N extends CallableName>(who: Person, name: N, data: CallableRequest<N>) => callByName(who.client, name, data)

// Published yesterday: their SLA clocks are running now.
const recentFinding = (service: ServiceId, overrides: Partial<StoredFinding> = {}) =>
  findingDocument(service, overrides, Date.now() - DAY_MS)

async function seedFindings(company: string, findings: Record<string, StoredFinding>) {
  await admin.db.runTransaction((tx) =>
    applyFindingChanges(admin.db, tx, {
      company,
      updatedBy: 'analyst@sectest.example',
      findings: Object.entries(findings).map(([id, finding]) => ({ id, before: null, patch: finding, change: null })),
    }),
  )
}

async function finding(company: string, id: string) {
  const found = findingFromDocument(id, (await admin.db.doc(findingPath(company, id)).get()).data())
  if (!found) throw new Error(`no finding ${id}`)
  return found
}

async function stats(company: string, service: ServiceId) {
  return readServiceStats((await admin.db.doc(serviceStatsPath(company, service)).get()).data())
}

let viewer: Person, manager: Person, companyAdmin: Person, analyst: Person, outsider: Person, senior: Person

beforeAll(async () => {
  admin = connectToEmulators()
  mail = await startMailCatcher({ smtpPort: 1025, httpPort: 0 })
  await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableDast: true, enableViewResultsNetwork: true }))
  await admin.db.doc(companyPath(STATS_SLUG)).set(
    companyDocument(STATS_SLUG, {
      enableViewProjectMarianaResults: true,
      enableViewResultsNetwork: true,
      enableViewCloudScanStats: true,
    }),
  )
  ;[viewer, manager, companyAdmin, analyst, outsider, senior] = await Promise.all([
    person('viewer', LEVEL.clientViewer, [SLUG], ['dast']),
    person('manager', LEVEL.clientManager, [SLUG, STATS_SLUG]),
    person('admin', LEVEL.companyAdmin, [SLUG]),
    person('analyst', LEVEL.analyst, [SLUG, STATS_SLUG]),
    person('outsider', LEVEL.analyst, ['elsewhere']),
    person('senior', LEVEL.seniorAnalyst, []),
  ])
})

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await mail?.close()
  await disconnect(admin)
})

describe('who may call, in which company', () => {
  it('moves findings by role; refuses viewers, non-members and stats-only services', async () => {
    const ids = Object.fromEntries(['m', 'a', 'an', 'v', 'o', 's', 'fp'].map((k) => [k, `perm-${k}-${unique()}`]))
    await seedFindings(SLUG, Object.fromEntries(Object.values(ids).map((id) => [id, recentFinding('dast')])))
    await seedFindings(STATS_SLUG, { 'cloud-1': recentFinding('cloud'), 'net-1': recentFinding('network') })
    const start = (who: Person, id: string, company = SLUG) =>
      call(who, 'changeFindingStatus', { company, findingIds: [id], action: 'start_remediation' })

    expect(await start(manager, ids.m!)).toEqual({ changed: [ids.m], refused: [] })
    expect(await start(companyAdmin, ids.a!)).toEqual({ changed: [ids.a], refused: [] })
    // Analysts may select the company but start remediation is the client's move.
    expect(await start(analyst, ids.an!)).toMatchObject({ changed: [], refused: [{ findingId: ids.an }] })
    expect(await start(senior, ids.s!)).toMatchObject({ changed: [], refused: [{ findingId: ids.s }] })
    await expectCallableError(start(viewer, ids.v!), 'permission-denied')
    await expectCallableError(start(outsider, ids.o!), 'permission-denied')
    expect((await finding(SLUG, ids.v!)).status).toBe('open')
    expect((await finding(SLUG, ids.o!)).status).toBe('open')

    const falsePositive = (who: Person) =>
      call(who, 'changeFindingStatus', { company: SLUG, findingIds: [ids.fp!], action: 'mark_false_positive', note: 'Test page' })
    expect(await falsePositive(manager)).toMatchObject({ changed: [], refused: [{ findingId: ids.fp }] })
    expect(await falsePositive(senior)).toEqual({ changed: [ids.fp], refused: [] })

    // Cloud is stats only there: nobody but the override reaches its findings; network is results.
    await expectCallableError(start(manager, 'cloud-1', STATS_SLUG), 'permission-denied')
    expect(await start(manager, 'net-1', STATS_SLUG)).toEqual({ changed: ['net-1'], refused: [] })

    await expectCallableError(start(manager, 'no-such-finding'), 'not-found')
    await expectCallableError(start(senior, 'x', `missing-${unique()}`), 'not-found')
    await expectCallableError(start(manager, 'x', `missing-${unique()}`), 'permission-denied')
  })

  it('lets readers comment for the client, analysts internally, and tells those mentioned', async () => {
    const id = `comment-${unique()}`
    await seedFindings(SLUG, { [id]: recentFinding('dast') })
    const comment = (who: Person, visibility: 'client' | 'internal', body = 'Looked at it') =>
      call(who, 'addFindingComment', { company: SLUG, findingId: id, body, visibility })

    await comment(viewer, 'client')
    await expectCallableError(comment(viewer, 'internal'), 'permission-denied')
    await expectCallableError(comment(manager, 'internal'), 'permission-denied')
    await expectCallableError(comment(outsider, 'client'), 'permission-denied')
    await comment(analyst, 'internal')
    await comment(manager, 'client', `@${companyAdmin.email} can you approve? cc @${outsider.email}`)
    await expectCallableError(
      call(viewer, 'addFindingComment', { company: SLUG, findingId: 'no-such-finding', body: 'Hi', visibility: 'client' }),
      'not-found',
    )

    expect((await finding(SLUG, id)).commentCount).toBe(3)
    const comments = await admin.db.collection(`${findingPath(SLUG, id)}/comments`).get()
    expect(comments.docs.map((d) => d.get('visibility')).sort()).toEqual(['client', 'client', 'internal'])
    const mentions = await admin.db.collection('notifications').where('type', '==', 'mention').where('company', '==', SLUG).get()
    // The outsider cannot see the finding: only the company admin is told.
    expect(mentions.docs.map((d) => d.get('uid'))).toEqual([companyAdmin.uid])
    const mentioning = comments.docs.find((d) => d.get('body').startsWith('@'))
    expect(mentioning?.get('mentions')).toEqual([companyAdmin.email.toLowerCase()])
  })

  it('stores and tells a mention of someone who may not read the finding exactly as one of an address without an account', async () => {
    const id = `mention-${unique()}`
    await seedFindings(SLUG, { [id]: recentFinding('dast') })
    const nobody = `nobody-${unique()}@rival.example`
    // An account of another company, and one of this company that may not read DAST results.
    const elsewhere = await person(`rival-${unique()}`, LEVEL.companyAdmin, [STATS_SLUG])
    const unserved = await person(`unserved-${unique()}`, LEVEL.clientViewer, [SLUG], ['network'])
    const mentionsOf = async (body: string) => {
      const { commentId } = (await call(viewer, 'addFindingComment', { company: SLUG, findingId: id, body, visibility: 'client' })) as {
        commentId: string
      }
      return (await admin.db.doc(`${findingPath(SLUG, id)}/comments/${commentId}`).get()).get('mentions')
    }
    expect(await mentionsOf(`@${nobody} please look`)).toEqual([])
    expect(await mentionsOf(`@${elsewhere.email} please look`)).toEqual([])
    expect(await mentionsOf(`@${unserved.email} please look`)).toEqual([])
    expect(await mentionsOf(`@${manager.email} please look`)).toEqual([manager.email.toLowerCase()])
    const told = await admin.db.collection('notifications').where('type', '==', 'mention').where('link', '==', `/reports/dast/${id}`).get()
    expect(told.docs.map((d) => d.get('uid'))).toEqual([manager.uid])
  })
})

describe('mentions picked in the comment box', () => {
  const candidates = async (who: Person, id: string, prefix: string, visibility: 'client' | 'internal' = 'client') =>
    ((await call(who, 'listMentionCandidates', { company: SLUG, findingId: id, visibility, prefix })) as { people: { uid: string }[] })
      .people

  it('offers only the people who may read the finding, a handful for what was typed, the writer left out', async () => {
    const id = `offer-${unique()}`
    await seedFindings(SLUG, { [id]: recentFinding('dast') })
    // One of this company who may not read DAST results: never offered.
    const unserved = await person(`offer-unserved-${unique()}`, LEVEL.clientViewer, [SLUG], ['network'])
    const offered = (await candidates(viewer, id, '')).map((p) => p.uid)
    expect(offered.sort()).toEqual([manager.uid, companyAdmin.uid, analyst.uid].sort())
    expect(offered).not.toContain(unserved.uid)
    expect(await candidates(viewer, id, manager.email.toUpperCase())).toEqual([
      { uid: manager.uid, name: manager.email, email: manager.email },
    ])
    expect(await candidates(viewer, id, `nobody-${unique()}`)).toEqual([])
    // An analysts-only comment mentions analysts only, and only analysts write one.
    expect(await candidates(companyAdmin, id, '', 'client')).toHaveLength(3)
    expect(await candidates(analyst, id, '', 'internal')).toEqual([])
    await expectCallableError(candidates(viewer, id, '', 'internal'), 'permission-denied')
    await expectCallableError(candidates(outsider, id, ''), 'permission-denied')
    await expectCallableError(candidates(viewer, 'no-such-finding', ''), 'not-found')
  })

  it('tells the person picked, mentioned by name as the comment box writes it, and only while the name stands', async () => {
    const id = `picked-${unique()}`
    await seedFindings(SLUG, { [id]: recentFinding('dast') })
    const name = `Mario Manager ${unique()}`
    await admin.auth.updateUser(manager.uid, { displayName: name })
    const unserved = await person(`picked-unserved-${unique()}`, LEVEL.clientViewer, [SLUG], ['network'])
    await admin.auth.updateUser(unserved.uid, { displayName: 'Nina Network' })
    const comment = async (body: string, mentions: string[]) => {
      const { commentId } = (await call(viewer, 'addFindingComment', {
        company: SLUG,
        findingId: id,
        body,
        visibility: 'client',
        mentions,
      })) as { commentId: string }
      return (await admin.db.doc(`${findingPath(SLUG, id)}/comments/${commentId}`).get()).get('mentions')
    }
    const told = async () =>
      (await admin.db.collection('notifications').where('link', '==', `/reports/dast/${id}`).get()).docs.map((d) =>
        notificationFromDocument(d.id, d.data()),
      )

    // The demo's conversations mention by name: "@Mario Manager we changed the configuration…".
    expect(await comment(`@${name} we changed the configuration. Can you confirm?`, [manager.uid])).toEqual([manager.email])
    expect(await told()).toEqual([
      expect.objectContaining({ uid: manager.uid, type: 'mention', title: expect.stringContaining('mentioned you on') }),
    ])
    // A mention deleted before posting, and someone who may not read the finding, tell nobody.
    expect(await comment('We changed the configuration.', [manager.uid])).toEqual([])
    expect(await comment('@Nina Network have a look', [unserved.uid])).toEqual([])
    expect(await told()).toHaveLength(1)
  })
})

describe('retests', () => {
  it('are requested by a manager and completed by an analyst, with counters, history and a notice', async () => {
    const [a, b] = [`rt-a-${unique()}`, `rt-b-${unique()}`]
    await seedFindings(SLUG, { [a]: recentFinding('dast'), [b]: recentFinding('dast', { severity: 'critical' }) })
    const before = await stats(SLUG, 'dast')

    await expectCallableError(
      call(viewer, 'requestRetest', { requestId: randomUUID(), company: SLUG, findingIds: [a, b], note: 'Patched' }),
      'permission-denied',
    )
    const requested = (await call(manager, 'requestRetest', {
      requestId: randomUUID(),
      company: SLUG,
      findingIds: [a, b],
      note: 'Patched both',
    })) as {
      retestId: string
      dueAt: number
    }
    const retest = retestFromDocument(requested.retestId, (await admin.db.doc(retestPath(SLUG, requested.retestId)).get()).data())
    expect(retest).toMatchObject({
      service: 'dast',
      state: 'requested',
      findingIds: [a, b],
      note: 'Patched both',
      requestedByUid: manager.uid,
    })
    expect(retest!.dueAt - retest!.requestedAt).toBe(7 * DAY_MS)
    expect(await finding(SLUG, a)).toMatchObject({ status: 'retest_requested', slaState: 'paused', retestId: requested.retestId })
    expect((await stats(SLUG, 'dast')).retestsWaitingOnUs).toBe(before.retestsWaitingOnUs + 1)

    const complete = (who: Person, results: CallableRequest<'completeRetest'>['results']) =>
      call(who, 'completeRetest', { requestId: randomUUID(), company: SLUG, retestId: requested.retestId, results })
    await expectCallableError(complete(manager, [{ findingId: a, outcome: 'fixed' }]), 'permission-denied')
    await expectCallableError(complete(outsider, [{ findingId: a, outcome: 'fixed' }]), 'permission-denied')
    expect(await complete(analyst, [{ findingId: a, outcome: 'fixed' }])).toEqual({ completed: false, refused: [] })
    // A not-fixed outcome needs a note.
    expect(await complete(analyst, [{ findingId: b, outcome: 'not_fixed' }])).toMatchObject({
      completed: false,
      refused: [{ findingId: b }],
    })
    // The manager chose mail for completed retests; the company admin turned it off (but keeps the app's notice).
    await admin.db
      .doc(userPreferencesPath(manager.uid))
      .set({ notifications: { retest_completed: { inApp: true, email: true } } }, { merge: true })
    await admin.db
      .doc(userPreferencesPath(companyAdmin.uid))
      .set({ notifications: { retest_completed: { inApp: true, email: false } } }, { merge: true })
    const since = Date.now()
    expect(await complete(analyst, [{ findingId: b, outcome: 'not_fixed', note: 'Still reflected' }])).toEqual({
      completed: true,
      refused: [],
    })

    expect(await finding(SLUG, a)).toMatchObject({ status: 'fixed', fixedWithinSla: true, retestId: null, lastRetestOutcome: 'fixed' })
    expect(await finding(SLUG, b)).toMatchObject({ status: 'open', retestId: null, lastRetestOutcome: 'not_fixed' })
    const done = retestFromDocument(requested.retestId, (await admin.db.doc(retestPath(SLUG, requested.retestId)).get()).data())
    expect(done?.state).toBe('completed')
    expect(done?.results.map((r) => [r.findingId, r.outcome])).toEqual([
      [a, 'fixed'],
      [b, 'not_fixed'],
    ])
    const after = await stats(SLUG, 'dast')
    expect(after.retestsWaitingOnUs).toBe(before.retestsWaitingOnUs)
    expect(after.retestsWaitingOnYou).toBe(before.retestsWaitingOnYou + 1)
    const history = await admin.db
      .collection(`${findingPath(SLUG, a)}/history`)
      .orderBy('at')
      .get()
    expect(history.docs.map((d) => [d.get('action'), d.get('from'), d.get('to')])).toEqual([
      ['request_retest', 'open', 'retest_requested'],
      ['retest_fixed', 'retest_requested', 'fixed'],
    ])

    const notices = await admin.db.collection('notifications').where('type', '==', 'retest_completed').where('company', '==', SLUG).get()
    const told = notices.docs.map((d) => notificationFromDocument(d.id, d.data())?.uid).sort()
    expect(told).toEqual([viewer.uid, manager.uid, companyAdmin.uid].sort())
    // By email to those who chose it, to the local inbox.
    const query = new URLSearchParams({ to: manager.email, after: String(since - 1000), timeout: '15000' })
    const response = await fetch(`${mail!.inboxUrl}/api/wait?${query}`)
    expect(response.ok).toBe(true)
    const mailed = (await response.json()) as { subject: string; text: string }
    expect(mailed.subject).toContain('DAST retest completed')
    expect(mailed.text).toContain('1 of 2 findings are fixed.')
    // The callable returns once every mail is handed over: what is not in the inbox now was never sent.
    const inbox = async (to: string) =>
      (await (await fetch(`${mail!.inboxUrl}/api/messages?${new URLSearchParams({ to, after: String(since - 1000) })}`)).json()) as {
        subject: string
      }[]
    // Only this retest's mail counts: the inbox's `after` has a second of slack, in which a mail of
    // the test before (the company admin's mention) may have arrived.
    const retestMails = async (to: string) => (await inbox(to)).map((m) => m.subject).filter((subject) => subject.includes('retest'))
    expect(await retestMails(manager.email)).toEqual([mailed.subject])
    expect(await retestMails(companyAdmin.email)).toEqual([])
  })
})

describe('risk acceptance', () => {
  it('is asked by a manager, approved by a company admin and reopened by the sweep when it expires', async () => {
    const id = `ra-${unique()}`
    await seedFindings(SLUG, { [id]: recentFinding('network') })
    const expiresAt = Date.now() + 30 * DAY_MS
    const change = (who: Person, action: 'request_acceptance' | 'approve_acceptance', extra: object = {}) =>
      call(who, 'changeFindingStatus', { company: SLUG, findingIds: [id], action, note: 'Behind the VPN', ...extra })

    expect(await change(manager, 'request_acceptance')).toMatchObject({ changed: [], refused: [{ findingId: id }] })
    expect(await change(manager, 'request_acceptance', { expiresAt })).toEqual({ changed: [id], refused: [] })
    expect(await change(manager, 'approve_acceptance')).toMatchObject({ changed: [], refused: [{ findingId: id }] })
    expect(await change(companyAdmin, 'approve_acceptance')).toEqual({ changed: [id], refused: [] })
    expect(await finding(SLUG, id)).toMatchObject({
      status: 'risk_accepted',
      riskAcceptance: { expiresAt, decidedByUid: companyAdmin.uid },
    })

    await sweepFindings(admin.db, expiresAt - 1)
    expect((await finding(SLUG, id)).status).toBe('risk_accepted')
    await sweepFindings(admin.db, expiresAt + 1)
    expect(await finding(SLUG, id)).toMatchObject({ status: 'open', riskAcceptance: null })
    const history = await admin.db
      .collection(`${findingPath(SLUG, id)}/history`)
      .orderBy('at')
      .get()
    expect(history.docs.map((d) => d.get('action'))).toEqual(['request_acceptance', 'approve_acceptance', 'acceptance_expired'])
  })
})

describe('the hourly sweep', () => {
  it('goes through more candidates than a page holds, moving each once, with exact counts and one notice per state', async () => {
    // Long ago: no other test's findings are due then, so what the sweep moves is this test's alone.
    const now = Date.UTC(1990, 5, 1)
    // Every finding has its SLA moment (the last test here covers those stored without one).
    await admin.db.doc(SWEEP_STATE_PATH).set({ slaChangeAtFilled: true })
    const companies = [`sw-${unique()}`, `sw-${unique()}`]
    const reader = `sweep-reader-${unique()}`
    await Promise.all(companies.map((c) => admin.db.doc(companyPath(c)).set(companyDocument(c, { enableDast: true }))))
    await admin.db
      .doc(userAccessPath(reader))
      .set({ claims: tokenClaims(LEVEL.clientManager), companies, servicesEnabled: ['dast'], servicesManaged: [] })
    // High findings (30 days) published this many days before the sweep, with the state they had.
    const published = (days: number, overrides: Partial<StoredFinding> = {}) => findingDocument('dast', overrides, now - days * DAY_MS)
    const accepted = (expiresAt: number) =>
      published(2, {
        status: 'risk_accepted',
        slaState: 'none',
        closedAt: now - DAY_MS,
        riskAcceptance: { requestedByUid: 'm', requestedByName: 'M', requestedAt: now - DAY_MS, reason: 'Behind the VPN', expiresAt },
      })
    const expected: Record<string, Pick<StoredFinding, 'status' | 'slaState'>> = {}
    for (const company of companies) {
      const seeded: Record<string, StoredFinding> = {}
      const add = (key: string, finding: StoredFinding, after: Pick<StoredFinding, 'status' | 'slaState'>) => {
        seeded[key] = finding
        expected[`${company}/${key}`] = after
      }
      for (let i = 0; i < 3; i += 1) add(`expired-${i}`, accepted(now - (i + 1) * 1_000), { status: 'open', slaState: 'ok' })
      add('accepted', accepted(now + DAY_MS), { status: 'risk_accepted', slaState: 'none' })
      for (let i = 0; i < 3; i += 1) add(`soon-${i}`, published(26), { status: 'open', slaState: 'due_soon' })
      for (let i = 0; i < 2; i += 1) add(`late-${i}`, published(40), { status: 'open', slaState: 'breached' })
      add('soon-late', published(31, { slaState: 'due_soon' }), { status: 'open', slaState: 'breached' })
      for (let i = 0; i < 2; i += 1) add(`fresh-${i}`, published(1), { status: 'open', slaState: 'ok' })
      await seedFindings(company, seeded)
    }

    // Pages of 4: the accepted risks take 2, the running clocks (the reopened ones among them) 6.
    expect(await sweepFindings(admin.db, now, { pageSize: 4 })).toEqual({ reopened: 6, refreshed: 12, notified: 4 })
    for (const company of companies) {
      const findings = (await admin.db.collection(findingsPath(company)).get()).docs.map((d) => findingFromDocument(d.id, d.data())!)
      expect(Object.fromEntries(findings.map((f) => [`${company}/${f.id}`, { status: f.status, slaState: f.slaState }]))).toEqual(
        Object.fromEntries(Object.entries(expected).filter(([key]) => key.startsWith(`${company}/`))),
      )
      for (let i = 0; i < 3; i += 1) {
        const history = await admin.db.collection(`${findingPath(company, `expired-${i}`)}/history`).get()
        expect(history.docs.map((d) => d.get('action'))).toEqual(['acceptance_expired'])
      }
      // The ledger is folded: the figures equal a recount.
      expect(await stats(company, 'dast')).toEqual(sumContributions(findings.map((f) => findingContribution(f))))
      const notices = await admin.db.collection('notifications').where('uid', '==', reader).where('company', '==', company).get()
      expect(notices.docs.map((d) => d.get('title')).sort()).toEqual(['SLA breached: 3 DAST findings', 'SLA due soon: 3 DAST findings'])
    }
    // Swept again at the same moment: nothing is left to move.
    expect(await sweepFindings(admin.db, now, { pageSize: 4 })).toEqual({ reopened: 0, refreshed: 0, notified: 0 })
  })

  it('reads the findings whose SLA moment has come, not every running clock, and gives each moved one its next', async () => {
    const now = Date.UTC(1990, 8, 1)
    const company = `swm-${unique()}`
    await admin.db.doc(companyPath(company)).set(companyDocument(company, { enableDast: true }))
    const published = (days: number) => findingDocument('dast', {}, now - days * DAY_MS)
    await seedFindings(company, { due: published(26), quiet: published(26), fresh: published(1) })
    // A moment still to come, though the clock says otherwise: the sweep goes by the moment.
    await admin.db.doc(findingPath(company, 'quiet')).update({ slaChangeAt: Timestamp.fromMillis(now + DAY_MS) })

    await sweepFindings(admin.db, now)
    const due = await finding(company, 'due')
    expect(due.slaState).toBe('due_soon')
    expect(due.slaChangeAt).toBe(due.sla.dueAt! + 1)
    expect(await finding(company, 'quiet')).toMatchObject({ slaState: 'ok', slaChangeAt: now + DAY_MS })
    expect(await finding(company, 'fresh')).toMatchObject({ slaState: 'ok', slaChangeAt: now + 23 * DAY_MS })
  })

  it('gives the findings stored without an SLA moment theirs, once, moving those whose state has changed', async () => {
    const now = Date.UTC(1991, 2, 1)
    const company = `swl-${unique()}`
    await admin.db.doc(companyPath(company)).set(companyDocument(company, { enableDast: true }))
    const published = (days: number) => findingDocument('dast', {}, now - days * DAY_MS)
    await seedFindings(company, { due: published(26), late: published(40), fresh: published(1) })
    await Promise.all(
      ['due', 'late', 'fresh'].map((id) => admin.db.doc(findingPath(company, id)).update({ slaChangeAt: FieldValue.delete() })),
    )
    await admin.db.doc(SWEEP_STATE_PATH).delete()

    await sweepFindings(admin.db, now)
    const stored = async (id: string) => (await admin.db.doc(findingPath(company, id)).get()).data()!
    expect((await stored('due')).slaState).toBe('due_soon')
    expect((await stored('late')).slaState).toBe('breached')
    expect((await stored('late')).slaChangeAt).toBeNull()
    expect((await stored('fresh')).slaState).toBe('ok')
    expect((await stored('fresh')).slaChangeAt).toEqual(Timestamp.fromMillis(now + 23 * DAY_MS))
    // Once every finding has one, the sweep no longer looks for findings without.
    expect((await admin.db.doc(SWEEP_STATE_PATH).get()).get('slaChangeAtFilled')).toBe(true)
    await admin.db.doc(findingPath(company, 'fresh')).update({ slaChangeAt: FieldValue.delete() })
    await sweepFindings(admin.db, now)
    expect((await stored('fresh')).slaChangeAt).toBeUndefined()
  })
})

describe('service figures', () => {
  it('equal a recount after random moves through the callables', async () => {
    const company = `agg-${unique()}`
    await admin.db.doc(companyPath(company)).set(companyDocument(company, { enableDast: true, enableViewResultsNetwork: true }))
    await Promise.all(
      [manager, companyAdmin, analyst].map((p) =>
        admin.db.doc(userAccessPath(p.uid)).update({ companies: [...new Set([SLUG, STATS_SLUG, company])] }),
      ),
    )
    const severities = ['critical', 'high', 'medium', 'low', 'info'] as const
    const services: ServiceId[] = ['dast', 'network']
    const ids = Array.from({ length: 12 }, (_, i) => `agg-${i}`)
    const month = (i: number) => Date.UTC(2026, i % 3, 5)
    await seedFindings(
      company,
      Object.fromEntries(ids.map((id, i) => [id, findingDocument(services[i % 2]!, { severity: severities[i % 5]! }, month(i))])),
    )

    // A fixed seed (mulberry32): the same walk every run.
    let seed = 20_260_105
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n) | 0
    }
    const direct = FINDING_ACTION_NAMES.filter(
      (a) => a !== 'request_retest' && !(RETEST_OUTCOME_ACTIONS as readonly string[]).includes(a),
    ) as CallableRequest<'changeFindingStatus'>['action'][]
    const people = [manager, companyAdmin, analyst]
    for (let step = 0; step < 40; step += 1) {
      const id = ids[random(ids.length)]!
      // Findings alternate between the two services: a retest takes findings of one.
      const kind = random(4)
      try {
        if (kind === 0) {
          const open = await admin.db.collection(retestsPath(company)).where('state', '==', 'requested').get()
          const retest = open.docs[0] ? retestFromDocument(open.docs[0].id, open.docs[0].data()) : null
          if (retest)
            await call(analyst, 'completeRetest', {
              requestId: randomUUID(),
              company,
              retestId: retest.id,
              results: retest.findingIds.map((findingId) => ({
                findingId,
                outcome: (['fixed', 'partially_fixed', 'not_fixed'] as const)[random(3)]!,
                note: 'Checked',
              })),
            })
          else await call(manager, 'requestRetest', { requestId: randomUUID(), company, findingIds: [id], note: 'Patched' })
        } else if (kind === 1) {
          await call(people[random(2)]!, 'requestRetest', {
            requestId: randomUUID(),
            company,
            findingIds: [id, ids[(ids.indexOf(id) + 2 * random(6)) % ids.length]!],
            note: 'Patched',
          })
        } else {
          const action = direct[random(direct.length)]!
          await call(people[random(3)]!, 'changeFindingStatus', {
            company,
            findingIds: [id],
            action,
            note: 'Because',
            expiresAt: Date.now() + 10 * DAY_MS,
          })
        }
      } catch (error) {
        // Refused calls (a retest of findings that cannot take one) change nothing; anything else fails.
        expect((error as { code?: string }).code).toBe('functions/failed-precondition')
      }
    }

    const findings = (await admin.db.collection(findingsPath(company)).get()).docs.map((d) => findingFromDocument(d.id, d.data())!)
    const retests = (await admin.db.collection(retestsPath(company)).get()).docs.map((d) => retestFromDocument(d.id, d.data())!)
    const moved = new Set(findings.map((f) => f.status))
    expect(moved.size).toBeGreaterThan(3)
    for (const service of services) {
      const recount = sumContributions([
        ...findings.filter((f) => f.service === service).map((f) => findingContribution(f)),
        ...retests.filter((r) => r.service === service).map((r) => retestContribution(r)),
      ])
      expect(await stats(company, service), service).toEqual(recount)
    }
    // Each month opened what was published in it.
    for (const service of services) {
      for (const m of ['2026-01', '2026-02', '2026-03']) {
        const stored = (await admin.db.doc(serviceMonthPath(company, service, m)).get()).data()
        const opened = findings.filter((f) => f.service === service && new Date(f.publishedAt).toISOString().startsWith(m)).length
        const total = Object.values((stored?.opened ?? {}) as Record<string, number>).reduce((s, n) => s + n, 0)
        expect(total, `${service} ${m}`).toBe(opened)
      }
    }
  })
})
