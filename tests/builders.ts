// Test data builders: valid documents and token claims with the fields a test cares about
// overridden, so tests state only what differs. Shapes follow app/domain/access.ts and what the
// functions write; plain data, usable with the web SDK, the Admin SDK and mock tokens alike.
import { allCompanyFlags, LEVEL, type CompanyFlag, type UserType } from '#domain/access.ts'
import type { StoredFinding } from '#domain/findings.ts'
import type { StoredRetest } from '#domain/retests.ts'
import type { ServiceId } from '#domain/services.ts'
import { DEFAULT_SLA_POLICY, startSlaClock, withSlaChangeAt } from '#domain/sla.ts'
import type { CveIntel } from '#domain/vuln-intel.ts'
import type { DemoAccount } from '../emulators/seed/demo-accounts.ts'

type Level = (typeof LEVEL)[keyof typeof LEVEL]

export interface TokenClaims {
  userType: UserType
  accessLevel: number
  /** Seconds: sign-ins at or before it no longer count. */
  revoked?: number
  [claim: string]: unknown
}

/** The custom claims of a person of `accessLevel`: an analyst from level 5 up, a client below. */
export function tokenClaims(accessLevel: Level | number, overrides: Partial<TokenClaims> = {}): TokenClaims {
  return { userType: accessLevel >= LEVEL.analyst ? 'analyst' : 'client', accessLevel, ...overrides }
}

export interface UsersAccessDocument {
  claims: TokenClaims
  companies: string[]
  servicesEnabled: string[]
  servicesManaged: string[]
}

/** A users_access document as the functions write it: a client viewer of no company by default. */
export function usersAccessDocument(overrides: Partial<UsersAccessDocument> = {}): UsersAccessDocument {
  return { claims: tokenClaims(LEVEL.clientViewer), companies: [], servicesEnabled: [], servicesManaged: [], ...overrides }
}

/** The users_access document of a demo account (or an account derived from one). */
export function usersAccessOf(account: DemoAccount): UsersAccessDocument {
  return usersAccessDocument({
    claims: tokenClaims(account.accessLevel, { userType: account.userType }),
    companies: [...account.companies],
    servicesEnabled: [...account.servicesEnabled],
    servicesManaged: [...account.servicesManaged],
  })
}

export type CompanyDocument = { slug: string; companyName: string } & Record<CompanyFlag, boolean>

/** A companies/{slug} document: every service switch off unless overridden. */
export function companyDocument(slug: string, overrides: Partial<CompanyDocument> = {}): CompanyDocument {
  return { slug, companyName: `Company ${slug}`, ...allCompanyFlags(false), ...overrides }
}

/**
 * A findings document (StoredFindingSchema) with times as epoch ms: an open high finding of
 * `service` published at `at`, its SLA clock running. Convert the times for the SDK that writes it.
 */
export function findingDocument(service: ServiceId, overrides: Partial<StoredFinding> = {}, at = Date.UTC(2026, 0, 5)): StoredFinding {
  const severity = overrides.severity ?? 'high'
  const finding: StoredFinding = {
    service,
    fingerprint: 'f'.repeat(64),
    title: `A ${severity} ${service} finding`,
    severity,
    cvss: null,
    cwe: [],
    cve: [],
    hasCves: false,
    intel: null,
    tags: [],
    asset: 'app.acme.example:443',
    location: { host: 'app.acme.example', port: '443' },
    description: 'What it is.',
    impact: 'What it allows.',
    remediation: 'How to fix it.',
    references: [],
    evidence: 'Seen on the login page.',
    status: 'open',
    regression: false,
    firstSeenScanId: 'scan-1',
    firstSeenAt: at,
    lastSeenScanId: 'scan-1',
    lastSeenAt: at,
    seenCount: 1,
    publishedAt: at,
    sla: startSlaClock(severity, at, DEFAULT_SLA_POLICY),
    slaState: severity === 'info' ? 'none' : 'ok',
    closedAt: null,
    fixedAt: null,
    fixedWithinSla: null,
    retestId: null,
    lastRetestOutcome: null,
    riskAcceptance: null,
    previousStatus: null,
    commentCount: 0,
    updatedAt: at,
    updatedBy: 'analyst@sectest.example',
    slaChangeAt: null,
    ...overrides,
  }
  // As the finding store keeps it, unless the test stores another on purpose.
  return 'slaChangeAt' in overrides ? finding : withSlaChangeAt(finding)
}

/** A retests document (times as epoch ms): requested for `findingIds` by a manager. */
export function retestDocument(service: ServiceId, findingIds: string[], overrides: Partial<StoredRetest> = {}, at = Date.UTC(2026, 0, 6)) {
  return {
    service,
    findingIds,
    findingTitles: findingIds.map((id) => `Finding ${id}`),
    state: 'requested',
    note: 'Patched',
    requestedByUid: 'demo-client-manager',
    requestedByName: 'Mario Manager',
    requestedAt: at,
    dueAt: at + 7 * 86_400_000,
    results: [],
    completedAt: null,
    completedByName: null,
    updatedAt: at,
    updatedBy: 'manager@acme.example',
    ...overrides,
  } satisfies StoredRetest
}

/** What the feeds say of two CVEs: one known exploited (Log4Shell), one with an EPSS score only (regreSSHion). */
export const SAMPLE_CVE_INTEL: Readonly<Record<string, CveIntel>> = {
  'CVE-2021-44228': {
    cve: 'CVE-2021-44228',
    kev: { dateAdded: '2021-12-10', dueDate: '2021-12-24', ransomware: true },
    epss: 0.94358,
    percentile: 0.99955,
  },
  'CVE-2024-6387': { cve: 'CVE-2024-6387', kev: null, epss: 0.37731, percentile: 0.97124 },
}
