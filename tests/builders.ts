// Test data builders: valid documents and token claims with the fields a test cares about
// overridden, so tests state only what differs. Shapes follow app/domain/access.ts and what the
// functions write; plain data, usable with the web SDK, the Admin SDK and mock tokens alike.
import { allCompanyFlags, LEVEL, type CompanyFlag, type UserType } from '#domain/access.ts'
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
