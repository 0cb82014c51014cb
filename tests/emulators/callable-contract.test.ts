// The callable contract, enforced by the functions for every callable in #domain/callables.ts:
// who may call (no sign-in, a revoked one, a level the rule refuses) and what they may send. The
// cases come from the registry, so a new callable is covered once it is added there (and given an
// example request below).
import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { allCompanyFlags, LEVEL, USER_TYPES, type Access } from '#domain/access.ts'
import { CALLABLE_NAMES, callables, type CallableAudience, type CallableName, type CallableRequest } from '#domain/callables.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import {
  callByName,
  connectCallableClient,
  expectCallableError,
  revokeSignIn,
  signInWithClaims,
  type CallableClient,
} from './callable-client.ts'

/** A request each callable's contract accepts; those refused before the handler runs change nothing. */
const examples: { [N in CallableName]: CallableRequest<N> } = {
  sendSignInLink: { email: 'nobody@contract.example', url: 'http://127.0.0.1:3000', timeZone: 'UTC' },
  handleSignIn: null,
  handleSupportEmail: { message: 'Hello', request_type: 'question' },
  handleSignedOutSupportEmail: { message: 'Hello', request_type: 'question', email: 'nobody@contract.example' },
  getSearchClient: { type: 'search' },
  deleteFindingTemplate: { slug: 'contract-no-such-template' },
  importFindingTemplates: { fileName: 'library.json', text: '{"templates":[]}' },
  changeFindingStatus: { company: 'contract-no-such-company', findingIds: ['none'], action: 'start_remediation' },
  requestRetest: { requestId: 'contract-request-0001', company: 'contract-no-such-company', findingIds: ['none'], note: 'Patched' },
  completeRetest: {
    requestId: 'contract-request-0001',
    company: 'contract-no-such-company',
    retestId: 'none',
    results: [{ findingId: 'none', outcome: 'fixed' }],
  },
  addFindingComment: { company: 'contract-no-such-company', findingId: 'none', body: 'Hello', visibility: 'client' },
  listMentionCandidates: { company: 'contract-no-such-company', findingId: 'none', visibility: 'client', prefix: '' },
  createVaultLink: {
    requestId: 'contract-request-0001',
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    company: 'contract-no-such-company',
    expiresAt: 0,
    maxViews: 1,
    recipient: null,
    label: '',
    kdf: null,
    findTokenHash: 'A'.repeat(43),
    openTokenHash: 'A'.repeat(43),
    ciphertext: 'A'.repeat(40),
    iv: 'A'.repeat(16),
  },
  revokeVaultLink: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
  vaultLinkInfo: { id: 'AAAAAAAAAAAAAAAAAAAAAA', findToken: 'A'.repeat(43) },
  claimVaultLink: { id: 'AAAAAAAAAAAAAAAAAAAAAA', findToken: 'A'.repeat(43), openToken: 'A'.repeat(43) },
  createVaultRequest: {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    company: 'contract-no-such-company',
    expiresAt: 0,
    label: 'VPN credentials',
    submitTokenHash: 'A'.repeat(43),
    wrappedKey: { ciphertext: 'A'.repeat(64), iv: 'A'.repeat(16), kdf: { salt: 'A'.repeat(22), iterations: 600_000 } },
  },
  revokeVaultRequest: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
  setVaultKey: {
    publicKey: 'B'.repeat(87),
    wrappedKey: { ciphertext: 'A'.repeat(64), iv: 'A'.repeat(16), kdf: { salt: 'A'.repeat(22), iterations: 600_000 } },
  },
  vaultTeamKeys: { company: 'contract-no-such-company' },
  openVaultRequest: { id: 'AAAAAAAAAAAAAAAAAAAAAA' },
  vaultRequestInfo: { id: 'AAAAAAAAAAAAAAAAAAAAAA', submitToken: 'A'.repeat(43) },
  submitVaultRequest: {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    submitToken: 'A'.repeat(43),
    answer: { enc: 'A'.repeat(87), ciphertext: 'A'.repeat(40) },
  },
  createDraftScan: {
    company: 'contract-no-such-company',
    service: 'network',
    title: 'Contract',
    files: [{ name: 'scan.xml', sha256: '0'.repeat(64), size: 1, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.94' }],
    startedAt: null,
    finishedAt: null,
    targets: [],
    report: { findings: 0, assets: 0, skipped: 0, warnings: 0, notes: [] },
  },
  addDraftFindings: { company: 'contract-no-such-company', scanId: 'none', sourceFile: '0'.repeat(64), findings: [], assets: [] },
  finishDraftImport: { company: 'contract-no-such-company', scanId: 'none' },
  reviewDraftFindings: { company: 'contract-no-such-company', scanId: 'none', findingIds: ['none'], review: { kind: 'split' } },
  publishScan: { company: 'contract-no-such-company', scanId: 'none' },
  previewPublication: { company: 'contract-no-such-company', scanId: 'none' },
  discardDraftScan: { company: 'contract-no-such-company', scanId: 'none' },
  saveLocation: { name: 'Contract', country: 'GB', region: '', network: '', egressIps: [] },
  deleteLocation: { id: 'contract-no-such-location' },
  createAgentEnrolment: { locationId: 'contract-no-such-location', name: 'contract' },
  changeAgent: { agentId: 'contract-no-such-agent', action: 'disable' },
  queueScanJob: { company: 'contract-no-such-company', profile: 'web-dast', locationId: 'none', targets: ['http://127.0.0.1/'] },
  cancelScanJob: { jobId: 'contract-no-such-job' },
  queuePasswordAudit: {
    company: 'contract-no-such-company',
    agentId: 'contract-no-such-agent',
    sealed: { v: 1, epk: 'A'.repeat(43), iv: 'A'.repeat(16), ct: 'AAAA' },
  },
  getPasswordReuseKey: { company: 'contract-no-such-company' },
  saveTemplateMapping: { service: 'network', ruleId: 'contract-rule', templateSlug: 'contract-no-such-template' },
  createCompany: { companyName: 'Contract Co', flags: allCompanyFlags(false), scanScope: [] },
  updateCompany: { company: 'contract-no-such-company', flags: { enableDast: true } },
  updateScanScope: { company: 'contract-no-such-company', add: [{ kind: 'domain', value: 'contract.example' }] },
  saveService: { service: 'dast', description: 'Contract' },
  createDastKey: { company: 'contract-no-such-company', name: 'CI', expiresInDays: 30, allowedTargets: ['contract.example'] },
  revokeDastKey: { id: 'AAAAAAAAAAAAAAAA' },
  createApiToken: { company: 'contract-no-such-company', name: 'Tracker', scopes: ['findings:read'], expiresInDays: 30 },
  revokeApiToken: { id: 'AAAAAAAAAAAAAAAA' },
  createWebhookEndpoint: { company: 'contract-no-such-company', url: 'https://hooks.example.com/in', events: ['finding.new'] },
  rotateWebhookSecret: { id: 'AAAAAAAAAAAAAAAA' },
  setWebhookEndpointEnabled: { id: 'AAAAAAAAAAAAAAAA', enabled: false },
  deleteWebhookEndpoint: { id: 'AAAAAAAAAAAAAAAA' },
  resendWebhookDelivery: { id: 'AAAAAAAAAAAAAAAA_evt_AAAAAAAAAAAAAAAAAAAAAAAA' },
  listUsers: { company: 'contract-no-such-company' },
  inviteUser: {
    email: 'invitee@contract.example',
    userType: 'client',
    accessLevel: 1,
    companies: ['contract-no-such-company'],
    servicesEnabled: [],
    servicesManaged: [],
    url: 'http://127.0.0.1:3000',
    timeZone: 'UTC',
  },
  updateUserAccess: {
    uid: 'contract-no-such-user',
    userType: 'client',
    accessLevel: 1,
    companies: ['contract-no-such-company'],
    servicesEnabled: [],
    servicesManaged: [],
  },
  removeUserFromCompany: { uid: 'contract-no-such-user', company: 'contract-no-such-company' },
  restoreUserToCompany: { uid: 'contract-no-such-user', company: 'contract-no-such-company' },
  revokeUserSessions: { uid: 'contract-no-such-user' },
  setUserDisabled: { uid: 'contract-no-such-user', disabled: true },
  deleteUser: { uid: 'contract-no-such-user' },
  fillMissingAddresses: { cursor: null },
  createEmailKey: {
    match: '@contract.example',
    company: 'contract-no-such-company',
    userType: 'client',
    accessLevel: 1,
    expiresAt: Date.now() + 30 * 24 * 3600_000,
  },
  revokeEmailKey: { id: 'contract-no-such-key' },
}

/** Requests no contract accepts: not an object, and the example with a key it does not know. */
function badRequests(name: CallableName): unknown[] {
  const example: unknown = examples[name]
  return ['not an object', typeof example === 'object' && example !== null ? { ...example, unexpected: true } : { unexpected: true }]
}

const CLAIMS: Access[] = USER_TYPES.flatMap((userType) => Object.values(LEVEL).map((accessLevel) => ({ userType, accessLevel })))

/** The most privileged claims `who` admits: no claims at all when any sign-in will do. */
function admitted(who: Exclude<CallableAudience, 'public'>): Access {
  if (who === 'signed-in') return {}
  const claims = CLAIMS.filter(who).at(-1)
  if (!claims) throw new Error('no claims pass the rule')
  return claims
}

/** For each user type, the most privileged claims `rule` refuses; and a token without claims, when refused. */
const refused = (rule: (access: Access) => boolean): Access[] => [
  ...USER_TYPES.flatMap((userType) => CLAIMS.filter((claims) => claims.userType === userType && !rule(claims)).slice(-1)),
  ...(rule({}) ? [] : [{}]),
]

const guarded = CALLABLE_NAMES.flatMap((name) => {
  const who = callables[name].who
  return who === 'public' ? [] : [{ name, who }]
})
const ruled = guarded.flatMap(({ name, who }) => (typeof who === 'function' ? [{ name, rule: who }] : []))

let admin: AdminClients
let client: CallableClient

beforeAll(() => {
  admin = connectToEmulators()
  client = connectCallableClient('callable-contract')
})

beforeEach(async () => {
  await client.auth.signOut()
})

afterAll(async () => {
  await client.close()
  await disconnect(admin)
})

it('has an example request each contract accepts', () => {
  for (const name of CALLABLE_NAMES) expect(v.is(callables[name].request, examples[name]), name).toBe(true)
})

describe.each(guarded)('$name', ({ name, who }) => {
  it('refuses callers who are not signed in', async () => {
    await expectCallableError(callByName(client, name, examples[name]), 'unauthenticated', 'Sign in first.')
  })

  it('refuses a revoked sign-in, even with access that would do', async () => {
    await signInWithClaims(client, admin.auth, { ...admitted(who) })
    await revokeSignIn(client, admin.auth)
    await expectCallableError(callByName(client, name, examples[name]), 'unauthenticated', 'Your sign-in was revoked: sign in again.')
  })

  it.each(badRequests(name).map((data) => [JSON.stringify(data), data]))(
    'refuses the payload %s from a caller it admits',
    async (_, data) => {
      expect(v.is(callables[name].request, data)).toBe(false)
      await signInWithClaims(client, admin.auth, { ...admitted(who) })
      await expectCallableError(callByName(client, name, data), 'invalid-argument')
    },
  )
})

describe.each(ruled)('$name, for those its rule admits', ({ name, rule }) => {
  it.each(refused(rule).map((claims) => [claims.userType, claims.accessLevel, claims]))(
    'refuses a %s of level %i',
    async (_type, _level, claims) => {
      await signInWithClaims(client, admin.auth, { ...claims })
      await expectCallableError(callByName(client, name, examples[name]), 'permission-denied', 'Your access does not allow this.')
    },
  )
})

describe.each(CALLABLE_NAMES.filter((name) => callables[name].who === 'public'))('%s, public', (name) => {
  it.each(badRequests(name).map((data) => [JSON.stringify(data), data]))(
    'refuses the payload %s without asking for a sign-in',
    async (_, data) => {
      await expectCallableError(callByName(client, name, data), 'invalid-argument')
    },
  )
})
