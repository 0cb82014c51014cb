// users_access/{uid}: what a person may do. `claims` holds the access level and user type that
// syncUserClaims copies into the ID token's custom claims on every write, plus when the sign-ins
// were revoked and when the claims were last synced; the lists say which companies and services
// are theirs. Browser, edge, functions, seed and tests read and write it through this module.
import * as v from 'valibot'
import { LEVEL, USER_TYPES, type Access, type UserType } from './access.ts'
import { TimestampSchema } from './stored.ts'

export const USERS_ACCESS_COLLECTION = 'users_access'

export const userAccessPath = (uid: string) => `${USERS_ACCESS_COLLECTION}/${uid}`

export const UserTypeSchema = v.picklist(USER_TYPES)

/** Whether a level suits the type: levels from 5 up need an analyst. */
export const grantConsistent = (grant: { accessLevel: number; userType: UserType }) =>
  grant.accessLevel < LEVEL.analyst || grant.userType === 'analyst'

/** The fields of a grant, for schemas that hold one (users_access claims, email keys). */
export const accessGrantEntries = {
  accessLevel: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(9)),
  userType: UserTypeSchema,
}

/** Analyst levels (5 and above) belong to analysts only: a client at level 9 is no platform admin. */
export const consistentGrant = <T extends { accessLevel: number; userType: UserType }>() =>
  v.check((grant: T) => grantConsistent(grant), `Levels from ${LEVEL.analyst} up are for analysts only`)

/** The level and type a sign-in copies into the token. */
export const AccessGrantSchema = v.pipe(v.object(accessGrantEntries), consistentGrant())

export type AccessGrant = v.InferOutput<typeof AccessGrantSchema>

/** handleSignIn answers with the grant it copied into the token. */
export const HandleSignInResponseSchema = v.pipe(v.strictObject(accessGrantEntries), consistentGrant())

export type HandleSignInResponse = v.InferOutput<typeof HandleSignInResponseSchema>

const UserAccessSchema = v.object({
  claims: v.optional(
    v.object({
      accessLevel: v.optional(v.nullable(v.number())),
      userType: v.optional(v.nullable(UserTypeSchema)),
      /** Sign-ins before this time (epoch ms) are revoked. */
      revoked: v.optional(v.nullable(TimestampSchema)),
      /** The token claims were last set at this time (epoch ms): older tokens refresh. */
      synced: v.optional(v.nullable(TimestampSchema)),
    }),
    {},
  ),
  companies: v.optional(v.array(v.string()), []),
  servicesEnabled: v.optional(v.array(v.string()), []),
  servicesManaged: v.optional(v.array(v.string()), []),
  /** The person's address as storedEmail gives it; absent on documents written before it was kept. */
  email: v.optional(v.nullable(v.string())),
  /**
   * The companies the person was removed from (removeUserFromCompany) and not given back since: their
   * admins list them as removed and may restore them. A company leaves the list when it is theirs again.
   */
  removedFrom: v.optional(v.array(v.string()), []),
})

export type UserAccessDocument = v.InferOutput<typeof UserAccessSchema>

/** A users_access document as stored; a missing document reads as no access. Throws on a malformed one. */
export const readUserAccess = (data: unknown): UserAccessDocument => v.parse(UserAccessSchema, data ?? {})

/** The grant a users_access document's claims hold, or null when they hold no complete or no consistent one. */
export function accessGrant(data: unknown): AccessGrant | null {
  const parsed = v.safeParse(v.object({ claims: AccessGrantSchema }), data)
  return parsed.success ? { accessLevel: parsed.output.claims.accessLevel, userType: parsed.output.claims.userType } : null
}

/**
 * The address users_access keeps beside the access, lower-cased: Auth cannot list a company's
 * people, so the people lists order, page and search by this field. Null for an account without one.
 */
export const storedEmail = (email: string | null | undefined) => email?.toLowerCase() ?? null

/** The document of a person let in by an email key (or created by an administrator). */
export const newUserAccessDocument = (grant: AccessGrant, companies: readonly string[], email: string | null) => ({
  claims: { userType: grant.userType, accessLevel: grant.accessLevel },
  companies: [...companies],
  servicesEnabled: [] as string[],
  servicesManaged: [] as string[],
  email: storedEmail(email),
})

const claimNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/** The part of access an ID token's custom claims carry: the rules and callables go by these. */
export interface ClaimsAccess {
  accessLevel: number | null
  userType: UserType | null
}

/** Access as a verified ID token's custom claims state it; anything malformed counts as absent. */
export function accessFromClaims(claims: Readonly<Record<string, unknown>>): ClaimsAccess {
  const userType = USER_TYPES.find((type) => type === claims.userType) ?? null
  return { accessLevel: claimNumber(claims.accessLevel), userType }
}

/** Whether a revocation at `revokedAtSeconds` ends a sign-in made at `signedInAtSeconds`. */
export const revokesSignIn = (revokedAtSeconds: number | null | undefined, signedInAtSeconds: number) =>
  typeof revokedAtSeconds === 'number' && revokedAtSeconds >= signedInAtSeconds

/** Whether the token's own claims say its sign-in was revoked (the `revoked` claim, in seconds). */
export const tokenRevoked = (claims: Readonly<Record<string, unknown>>, authTimeSeconds: number) =>
  revokesSignIn(claimNumber(claims.revoked), authTimeSeconds)

/**
 * Access as the permission module reads it. The document's claims win over the token's: an
 * administrator's change shows at once, while the token catches up when syncUserClaims has set
 * the claims and the browser refreshed it. No document (null) is no access, whatever a token
 * minted before its removal says.
 */
export function accessFromDocument(document: UserAccessDocument | null, token: ClaimsAccess): Access {
  if (!document) return { accessLevel: null, userType: null, servicesEnabled: [], servicesManaged: [] }
  return {
    accessLevel: document.claims.accessLevel ?? token.accessLevel,
    userType: document.claims.userType ?? token.userType,
    servicesEnabled: document.servicesEnabled,
    servicesManaged: document.servicesManaged,
  }
}

const seconds = (value: unknown): number | null => {
  const parsed = v.safeParse(TimestampSchema, value)
  return parsed.success ? Math.floor(parsed.output / 1000) : null
}

/** What syncUserClaims does for one users_access document, given the custom claims the Auth user holds. */
export interface ClaimsPlan {
  /** The custom claims to hold: the grant's level and type (none without a grant), other claims kept. */
  claims: Record<string, unknown>
  /** The level or type changes: set the claims and mark the document synced. */
  changed: boolean
  /**
   * End every sign-in: the level goes down, the type changes, the grant goes (document deleted or
   * invalid), or the document asks for it (`claims.revoked` later than the `revoked` claim).
   */
  revoke: boolean
}

/** `document` is the users_access data as stored, null when there is none. Pure, so a rerun with its own result is a no-op. */
export function planClaims(current: Readonly<Record<string, unknown>>, document: unknown): ClaimsPlan {
  const grant = document == null ? null : accessGrant(document)
  const held = accessFromClaims(current)
  const { accessLevel: _level, userType: _type, ...others } = current
  const claims: Record<string, unknown> = grant ? { ...others, accessLevel: grant.accessLevel, userType: grant.userType } : others
  const changed = grant?.accessLevel !== (held.accessLevel ?? undefined) || grant?.userType !== (held.userType ?? undefined)
  const demoted =
    held.accessLevel !== null &&
    (grant === null || grant.accessLevel < held.accessLevel || (held.userType !== null && grant.userType !== held.userType))
  const asked = document == null ? null : seconds((document as { claims?: { revoked?: unknown } }).claims?.revoked)
  const revokedClaim = claimNumber(current.revoked)
  const requested = asked !== null && (revokedClaim === null || asked > revokedClaim)
  return { claims, changed, revoke: demoted || requested }
}
