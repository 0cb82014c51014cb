// The people callables (invite, change, remove from a company, revoke sessions, disable, delete,
// list) and the one rule of who may change whom. Platform admins manage everyone; a company admin
// manages the clients of their own companies and never grants more than they hold. Pure
// TypeScript and valibot: the browser, the functions and the tests read the same contract.
import * as v from 'valibot'
import { hasLevel, LEVEL, serviceEnabledFor, USER_TYPES, type Access, type CompanyFlags, type UserType } from './access.ts'
import { levelFitsType } from './email-keys.ts'
import { ServiceIdSchema, type ServiceId } from './services.ts'
import { EmailSchema, isTimeZone } from './sign-in.ts'

export const peopleMessages = {
  typeLevel: 'Clients have level 1 to 3, analysts 5 to 9',
  level: 'Choose a level',
  type: 'Choose a type',
  company: 'Choose a company',
  clientCompany: 'A client belongs to at least one company',
  service: 'Unknown service',
  noPerson: 'No such person',
  exists: 'This address already has an account',
  alreadyYours: 'This person is already in one of your companies: change their access in the list',
  tooManyInvitations: 'Too many invitations in the last hour: wait a while and try again',
  yourself: 'You cannot change your own access, disable or delete yourself',
  analysts: 'Only platform admins manage analysts',
  notYourCompany: 'You manage people only in your own companies',
  otherCompanies:
    'This person also belongs to companies you do not administer, so only a platform administrator can change their level or services',
  moreThanYouHold: 'You cannot grant more access than you hold',
  lastAdmin: 'A company keeps at least one admin: make someone else its admin first',
  notMember: 'This person is not in that company',
  notRemoved: 'This person was not removed from that company: invite them or change their access instead',
  removedHere: 'This person was removed from this company: choose Removed people and restore them',
  removedNeedsCompany: 'Removed people are listed per company',
  managersAlone: "A service's managers are listed by address only, not by company, type or level",
} as const

const slug = v.pipe(
  v.string(peopleMessages.company),
  v.trim(),
  v.minLength(1, peopleMessages.company),
  v.maxLength(100, peopleMessages.company),
)

const unique = <T>(items: T[]) => [...new Set(items)]

const CompaniesSchema = v.pipe(v.array(slug), v.maxLength(100), v.transform(unique))
const ServicesSchema = v.pipe(v.array(v.pipe(v.string(peopleMessages.service), ServiceIdSchema)), v.transform(unique))

/** What a person may do: the fields of users_access an administrator sets. */
const AccessFieldsSchema = v.object({
  userType: v.picklist(USER_TYPES, peopleMessages.type),
  accessLevel: v.pipe(v.number(peopleMessages.level), v.integer(peopleMessages.level)),
  companies: CompaniesSchema,
  servicesEnabled: ServicesSchema,
  servicesManaged: ServicesSchema,
})

const UidSchema = v.pipe(
  v.string(peopleMessages.noPerson),
  v.minLength(1, peopleMessages.noPerson),
  v.maxLength(128, peopleMessages.noPerson),
)

export const InviteUserRequestSchema = v.pipe(
  v.strictObject({
    email: EmailSchema,
    ...AccessFieldsSchema.entries,
    // The page's origin, for the link in the invitation; and the inviter's zone, for its time.
    url: v.pipe(v.string('Invalid url'), v.maxLength(2048, 'Invalid url'), v.url('Invalid url')),
    timeZone: v.pipe(v.string('Invalid time zone'), v.maxLength(64, 'Invalid time zone'), v.check(isTimeZone, 'Invalid time zone')),
  }),
  v.forward(
    v.check((p) => levelFitsType(p.accessLevel, p.userType), peopleMessages.typeLevel),
    ['accessLevel'],
  ),
  v.forward(
    v.check((p) => p.userType !== 'client' || p.companies.length > 0, peopleMessages.clientCompany),
    ['companies'],
  ),
)
export type InviteUserRequest = v.InferInput<typeof InviteUserRequestSchema>
/**
 * `mailed` is false when the account exists but the mail could not go out (they can still ask for
 * a link on Home). No uid: the answer says nothing about who the address is (see inviteUser).
 */
export const InviteUserResponseSchema = v.strictObject({ mailed: v.boolean() })

/**
 * Below platform admin, `companies` and the services speak of what the caller sees of the person
 * (accessWithin their own companies): whatever else the person holds stays as it is.
 */
export const UpdateUserAccessRequestSchema = v.pipe(
  v.strictObject({ uid: UidSchema, ...AccessFieldsSchema.entries }),
  v.forward(
    v.check((p) => levelFitsType(p.accessLevel, p.userType), peopleMessages.typeLevel),
    ['accessLevel'],
  ),
  v.forward(
    v.check((p) => p.userType !== 'client' || p.companies.length > 0, peopleMessages.clientCompany),
    ['companies'],
  ),
)
export type UpdateUserAccessRequest = v.InferInput<typeof UpdateUserAccessRequestSchema>

export const ChangedResponseSchema = v.strictObject({ changed: v.boolean() })

export const RemoveUserFromCompanyRequestSchema = v.strictObject({ uid: UidSchema, company: slug })
/** Gives back a company someone was removed from, with the access they hold (restoreRefusal). */
export const RestoreUserToCompanyRequestSchema = RemoveUserFromCompanyRequestSchema
export const RevokeUserSessionsRequestSchema = v.strictObject({ uid: UidSchema })
export const SetUserDisabledRequestSchema = v.strictObject({ uid: UidSchema, disabled: v.boolean() })
export const DeleteUserRequestSchema = v.strictObject({ uid: UidSchema })

/** How many people one answer of listUsers holds: a page, never a whole company or platform. */
export const PEOPLE_PAGE = { size: 50, max: 200 } as const

/** Where the next page starts: after the last person of this one, in the list's order (address, then uid). */
const PeopleCursorSchema = v.strictObject({ email: v.nullable(v.pipe(v.string(), v.maxLength(320))), uid: UidSchema })
export type PeopleCursor = v.InferOutput<typeof PeopleCursorSchema>

/**
 * A page of a company's people (level 3+, a company of theirs), or of everyone (platform admins,
 * null), in order of address. The filters narrow on the server: the start of the address, the
 * level, and the type (those who see every company; the clients only, below). `manages` (platform
 * admins: the service catalogue) gives the people who manage a service, by address alone.
 */
export const ListUsersRequestSchema = v.pipe(
  v.strictObject({
    company: v.nullable(slug),
    pageSize: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(PEOPLE_PAGE.max)), PEOPLE_PAGE.size),
    cursor: v.optional(v.nullable(PeopleCursorSchema), null),
    emailPrefix: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(320)), ''),
    userType: v.optional(v.nullable(v.picklist(USER_TYPES, peopleMessages.type)), null),
    accessLevel: v.optional(
      v.nullable(v.pipe(v.number(peopleMessages.level), v.integer(peopleMessages.level), v.minValue(1), v.maxValue(9))),
      null,
    ),
    manages: v.optional(v.nullable(v.pipe(v.string(peopleMessages.service), ServiceIdSchema)), null),
    /** The people removed from `company` (and not back since) instead of its members: they may be restored. */
    removed: v.optional(v.boolean(), false),
  }),
  v.check((request) => !request.removed || request.company !== null, peopleMessages.removedNeedsCompany),
  // One index serves a service's managers: no company, type or level beside it.
  v.check(
    (request) => request.manages === null || (request.company === null && request.userType === null && request.accessLevel === null),
    peopleMessages.managersAlone,
  ),
)
export type ListUsersRequest = v.InferInput<typeof ListUsersRequestSchema>

const PersonRowSchema = v.strictObject({
  uid: v.string(),
  email: v.nullable(v.string()),
  displayName: v.nullable(v.string()),
  disabled: v.boolean(),
  /** Epoch milliseconds; null when never. */
  createdAt: v.nullable(v.number()),
  lastSignInAt: v.nullable(v.number()),
  userType: v.nullable(v.picklist(USER_TYPES)),
  accessLevel: v.nullable(v.number()),
  companies: v.array(v.string()),
  servicesEnabled: v.array(v.string()),
  servicesManaged: v.array(v.string()),
  /**
   * The person also belongs to companies hidden from the caller (never for platform admins): the
   * lists above hold only what concerns the caller's companies, and only a platform admin changes
   * their level and services.
   */
  inOtherCompanies: v.boolean(),
  /** Removed from the listed company (a list of removed people): Restore gives it back. */
  removed: v.boolean(),
})
export type PersonRow = v.InferOutput<typeof PersonRowSchema>

export const ListUsersResponseSchema = v.strictObject({
  people: v.array(PersonRowSchema),
  /** Where the next page starts; null after the last. */
  next: v.nullable(PeopleCursorSchema),
  /** How many people the request's filters match, across every page. */
  total: v.number(),
  /**
   * On a first page without an address filter: how many people of the same scope are left out
   * because their users_access holds no address yet (it is stored at their next sign-in or
   * change). Null on other pages.
   */
  unlisted: v.nullable(v.number()),
  /** Whether the caller may change these people (a senior analyst reads any company's, changes only their own companies'). */
  mayChange: v.boolean(),
})

/**
 * fillMissingAddresses (platform admins): users_access documents written before the address was
 * kept get it from Auth, in order of document id a page at a time. One call goes through as many
 * pages as fit in its time and answers where to go on; null starts from the first document.
 */
export const FillMissingAddressesRequestSchema = v.strictObject({ cursor: v.nullable(UidSchema) })
export const FillMissingAddressesResponseSchema = v.strictObject({
  /** Documents read in this call. */
  read: v.number(),
  /** Documents that lacked an address and now hold Auth's (null for an account without one). */
  filled: v.number(),
  /** Documents that lack an address and whose account is gone: left as they are. */
  withoutAccount: v.number(),
  /** The last document read, to go on from; null when every document has been read. */
  next: v.nullable(v.string()),
})

// ---- Who may change whom --------------------------------------------------------------------

/** The access part of users_access that these rules compare. */
export interface PersonAccess {
  userType: UserType | null
  accessLevel: number | null
  companies: readonly string[]
  servicesEnabled: readonly string[]
  servicesManaged: readonly string[]
}

/** The administrator, as their users_access states it now (the document wins over the token). */
export interface Actor {
  uid: string
  access: Access
  companies: readonly string[]
}

/** Callers of the people callables: company admins and above (platform admins for disabling and deleting). */
export const mayManagePeople = (access: Access) => hasLevel(access, LEVEL.companyAdmin)
export const mayManageEveryone = (access: Access) => hasLevel(access, LEVEL.platformAdmin)

/** Whether `actor` may change anyone among `company`'s people (null: everyone); accessChangeRefusal decides each change. */
export const mayChangePeopleOf = (actor: Actor, company: string | null) =>
  mayManageEveryone(actor.access) || (company !== null && mayManagePeople(actor.access) && actor.companies.includes(company))

/** A company admin in the sense of "the last admin": a client of level 3 in that company. */
export const isCompanyAdminOf = (person: PersonAccess | null, company: string) =>
  !!person && person.userType === 'client' && (person.accessLevel ?? 0) >= LEVEL.companyAdmin && person.companies.includes(company)

/** The companies where `before` was an admin and `after` is not: each must keep another admin. */
export const companiesLosingAdmin = (before: PersonAccess | null, after: PersonAccess | null): string[] =>
  (before?.companies ?? []).filter((company) => isCompanyAdminOf(before, company) && !isCompanyAdminOf(after, company))

const added = <T>(after: readonly T[] | undefined, before: readonly T[] | undefined) =>
  (after ?? []).filter((x) => !(before ?? []).includes(x))

const applyingIn = (list: readonly string[], companies: readonly string[], flags: Readonly<Record<string, CompanyFlags>>) =>
  list.filter((service) => companies.some((company) => flags[company] && serviceEnabledFor(flags[company], service as ServiceId)))

/**
 * What of a person's access concerns the companies of `view`: theirs among them, and the services
 * switched on in one of those. Level and type are the person's own wherever they work. What a
 * company admin reads of someone (listUsers) and what each company's audit copy holds.
 */
export const accessWithin = (
  access: PersonAccess,
  view: readonly string[],
  flags: Readonly<Record<string, CompanyFlags>>,
): PersonAccess => {
  const companies = access.companies.filter((company) => view.includes(company))
  return {
    ...access,
    companies,
    servicesEnabled: applyingIn(access.servicesEnabled, companies, flags),
    servicesManaged: applyingIn(access.servicesManaged, companies, flags),
  }
}

/** Whether the person belongs to a company outside `view`. */
export const belongsElsewhere = (access: PersonAccess | null, view: readonly string[]) =>
  !!access && access.companies.some((company) => !view.includes(company))

/** `requested`, a change to what `view` sees of `before` (accessWithin), with the rest of `before` kept. */
export function keepingHidden(
  before: PersonAccess,
  requested: PersonAccess,
  view: readonly string[],
  flags: Readonly<Record<string, CompanyFlags>>,
): PersonAccess {
  const seen = accessWithin(before, view, flags)
  const kept = (all: readonly string[], shown: readonly string[], asked: readonly string[]) =>
    unique([...asked, ...all.filter((x) => !shown.includes(x))])
  return {
    ...requested,
    companies: kept(before.companies, seen.companies, requested.companies),
    servicesEnabled: kept(before.servicesEnabled, seen.servicesEnabled, requested.servicesEnabled),
    servicesManaged: kept(before.servicesManaged, seen.servicesManaged, requested.servicesManaged),
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x))

/** The rights that hold in every company a person belongs to: level, type and services. */
const rightsChange = (before: PersonAccess, after: PersonAccess) =>
  before.accessLevel !== after.accessLevel ||
  before.userType !== after.userType ||
  !sameSet(before.servicesEnabled, after.servicesEnabled) ||
  !sameSet(before.servicesManaged, after.servicesManaged)

/** The highest level someone below platform admin may give: their own, and never more than a company admin's. */
export const grantableLevel = (actor: Access) => Math.min(actor.accessLevel ?? 0, LEVEL.companyAdmin)

/**
 * Why `actor` may not turn `before` into `after` (an invite has no `before`; a deletion no
 * `after`), or null when they may. `flags` holds the switches of the actor's companies: a company
 * admin grants only services one of their companies has on. Level, type and services hold in all
 * of a person's companies, so below platform admin they change only for someone whose companies
 * are all the actor's; the actor's own companies may still be added or taken away. Whether the
 * change leaves a company without an admin is asked apart (companiesLosingAdmin), as it needs the
 * other people.
 */
export function accessChangeRefusal(
  actor: Actor,
  targetUid: string | null,
  before: PersonAccess | null,
  after: PersonAccess | null,
  flags: Readonly<Record<string, CompanyFlags>> = {},
): string | null {
  if (targetUid === actor.uid && (after === null || after.accessLevel !== before?.accessLevel || after.userType !== before?.userType)) {
    return peopleMessages.yourself
  }
  if (mayManageEveryone(actor.access)) return null
  if (!mayManagePeople(actor.access)) return peopleMessages.moreThanYouHold
  if (before?.userType === 'analyst' || after?.userType === 'analyst') return peopleMessages.analysts
  const own = new Set(actor.companies)
  if (before && !before.companies.some((company) => own.has(company))) return peopleMessages.notYourCompany
  const moved = [...added(after?.companies, before?.companies), ...added(before?.companies, after?.companies)]
  if (moved.some((company) => !own.has(company))) return peopleMessages.notYourCompany
  if (!after) return null
  if (before && belongsElsewhere(before, actor.companies) && rightsChange(before, after)) return peopleMessages.otherCompanies
  const levelRaised = (after.accessLevel ?? 0) > (before?.accessLevel ?? 0)
  if (levelRaised && (after.accessLevel ?? 0) > grantableLevel(actor.access)) return peopleMessages.moreThanYouHold
  if (added(after.servicesManaged, before?.servicesManaged).some((service) => !actor.access.servicesManaged?.includes(service))) {
    return peopleMessages.moreThanYouHold
  }
  const held = (service: string) =>
    actor.companies.some(
      (company) => after.companies.includes(company) && flags[company] && serviceEnabledFor(flags[company], service as ServiceId),
    )
  if (added(after.servicesEnabled, before?.servicesEnabled).some((service) => !held(service))) return peopleMessages.moreThanYouHold
  return null
}

/**
 * Why `actor` may not give `company` back to someone removed from it (`before`, with `removedFrom`
 * as stored), or null when they may. The person comes back with the access they hold now, which
 * holds in every company of theirs: so below platform admin the restore is allowed only where the
 * actor could have invited them into the company with it (a client, at most the actor's level,
 * services that the actor's companies have on) — a level raised elsewhere meanwhile is for a
 * platform admin to bring back.
 */
export function restoreRefusal(
  actor: Actor,
  targetUid: string,
  before: PersonAccess,
  removedFrom: readonly string[],
  company: string,
  flags: Readonly<Record<string, CompanyFlags>> = {},
): string | null {
  if (!mayChangePeopleOf(actor, company)) return peopleMessages.notYourCompany
  if (!removedFrom.includes(company) || before.companies.includes(company)) return peopleMessages.notRemoved
  if (mayManageEveryone(actor.access)) return null
  const after = { ...before, companies: [...before.companies, company] }
  return accessChangeRefusal(actor, targetUid, null, accessWithin(after, actor.companies, flags), flags)
}
