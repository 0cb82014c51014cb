// What the people tables show and ask for, apart from React: level names, the levels a form
// offers, the filters of /admin/app/users and /admin/company/manage-users as a listUsers request,
// and the pages read again after a change.
import { grantableLevel, PEOPLE_PAGE, type ListUsersRequest } from '#domain/admin-people-calls.ts'
import { LEVEL, type Access, type UserType } from '#domain/access.ts'
import type { CallableResponse } from '#domain/callables.ts'
import { formatNumber } from '#domain/numbers.ts'

export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  [LEVEL.clientViewer]: 'Client viewer',
  [LEVEL.clientManager]: 'Client manager',
  [LEVEL.companyAdmin]: 'Company admin',
  [LEVEL.analyst]: 'Analyst',
  [LEVEL.seniorAnalyst]: 'Senior analyst',
  [LEVEL.platformAdmin]: 'Platform admin',
}

export const levelName = (level: number | null) => (level === null ? 'No level' : (LEVEL_NAMES[level] ?? `Level ${level}`))

const CLIENT_LEVELS = [LEVEL.clientViewer, LEVEL.clientManager, LEVEL.companyAdmin]
const ANALYST_LEVELS = [LEVEL.analyst, LEVEL.seniorAnalyst, LEVEL.platformAdmin]

/** The levels a form offers for a type: all of them to platform admins, up to their own (at most company admin) to others. */
export function levelChoices(actor: Access, userType: UserType): number[] {
  const levels: number[] = userType === 'client' ? CLIENT_LEVELS : ANALYST_LEVELS
  if ((actor.accessLevel ?? 0) >= LEVEL.platformAdmin) return levels
  return userType === 'client' ? levels.filter((level) => level <= grantableLevel(actor)) : []
}

/** The filters of the people tables; the server applies them, to every page. */
export interface PeopleFilter {
  /** The start of the address. */
  text: string
  /** Platform admins: one company's people ('' everyone). */
  company: string
  level: string
  /** Platform admins: clients or analysts (below, clients only). */
  type: string
  /** With a company: its members, or the people removed from it (who may be restored). */
  show: 'members' | 'removed'
}

export const NO_FILTER: PeopleFilter = { text: '', company: '', level: '', type: '', show: 'members' }

export const isFiltered = (filter: PeopleFilter) => filter.text.trim() !== '' || !!filter.company || !!filter.level || !!filter.type

/** What a table asks listUsers for, a page at a time: `company` is the page's own (null: everyone's, where the filter may pick one). */
export function peopleRequest(company: string | null, filter: PeopleFilter): ListUsersRequest {
  const listed = company ?? (filter.company || null)
  return {
    company: listed,
    emailPrefix: filter.text.trim().toLowerCase(),
    accessLevel: filter.level ? Number(filter.level) : null,
    userType: filter.type === 'client' || filter.type === 'analyst' ? filter.type : null,
    // Removed people are a company's: without one the list is everyone's.
    removed: listed !== null && filter.show === 'removed',
  }
}

/** "Showing 50 of 1,234 people". */
export const showingLine = (shown: number, total: number) =>
  `Showing ${formatNumber(shown)} of ${formatNumber(total)} ${total === 1 ? 'person' : 'people'}`

export type PeoplePage = CallableResponse<'listUsers'>

/**
 * The first `atLeast` people of a request (at least a page), in pages of at most the largest
 * listUsers gives: what a table showed, read again after a change so that the change shows where
 * the person is, wherever they are in the list.
 */
export async function readPeople(
  page: (request: ListUsersRequest) => Promise<PeoplePage>,
  request: ListUsersRequest,
  atLeast: number,
): Promise<PeoplePage> {
  const size = (wanted: number) => Math.min(PEOPLE_PAGE.max, Math.max(wanted, 1))
  const first = await page({ ...request, cursor: null, pageSize: size(Math.max(atLeast, PEOPLE_PAGE.size)) })
  let last = first
  let people = first.people
  while (last.next && people.length < atLeast) {
    last = await page({ ...request, cursor: last.next, pageSize: size(atLeast - people.length) })
    people = [...people, ...last.people]
  }
  return { ...last, people, unlisted: first.unlisted }
}
