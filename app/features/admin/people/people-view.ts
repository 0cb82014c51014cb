// What the people tables show and filter, apart from React: level names, the levels a form
// offers, and the filters of /admin/app/users and /admin/company/manage-users.
import { grantableLevel, type PersonRow } from '#domain/admin-people-calls.ts'
import { LEVEL, type Access, type UserType } from '#domain/access.ts'

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

export interface PeopleFilter {
  text: string
  company: string
  level: string
  type: string
  /** '' any, 'recent' within 30 days, 'stale' longer ago, 'never'. */
  signIn: string
}

export const NO_FILTER: PeopleFilter = { text: '', company: '', level: '', type: '', signIn: '' }

export const SIGN_IN_FILTERS = [
  { value: 'recent', label: 'Signed in within 30 days' },
  { value: 'stale', label: 'Not signed in for 30 days' },
  { value: 'never', label: 'Never signed in' },
] as const

const MONTH_MS = 30 * 24 * 3600_000

function signInMatches(at: number | null, filter: string, now: number): boolean {
  if (filter === 'never') return at === null
  if (filter === 'recent') return at !== null && now - at <= MONTH_MS
  if (filter === 'stale') return at !== null && now - at > MONTH_MS
  return true
}

/** The rows the filters let through: text in the address or name, and the chosen company, level, type and last sign-in. */
export function filterPeople(rows: readonly PersonRow[], filter: PeopleFilter, now = Date.now()): PersonRow[] {
  const text = filter.text.trim().toLowerCase()
  return rows.filter(
    (row) =>
      (!text || (row.email ?? '').toLowerCase().includes(text) || (row.displayName ?? '').toLowerCase().includes(text)) &&
      (!filter.company || row.companies.includes(filter.company)) &&
      (!filter.level || String(row.accessLevel) === filter.level) &&
      (!filter.type || row.userType === filter.type) &&
      signInMatches(row.lastSignInAt, filter.signIn, now),
  )
}
