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
}

export const NO_FILTER: PeopleFilter = { text: '', company: '', level: '', type: '' }

/** The rows the filters let through: text in the address or name, and the chosen company, level and type. */
export function filterPeople(rows: readonly PersonRow[], filter: PeopleFilter): PersonRow[] {
  const text = filter.text.trim().toLowerCase()
  return rows.filter(
    (row) =>
      (!text || (row.email ?? '').toLowerCase().includes(text) || (row.displayName ?? '').toLowerCase().includes(text)) &&
      (!filter.company || row.companies.includes(filter.company)) &&
      (!filter.level || String(row.accessLevel) === filter.level) &&
      (!filter.type || row.userType === filter.type),
  )
}

const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })

export const formatWhen = (at: number | null) => (at === null ? 'Never' : WHEN.format(at))
