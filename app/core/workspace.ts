import type { Access } from '#domain/access.ts'
import type { Company } from '#domain/companies.ts'
import type { Preferences } from '#domain/users-preferences.ts'

/**
 * The signed-in user's workspace: their access, the companies they can switch between and the
 * selected one. `company` is undefined until the list is known, null when there is none.
 */
export interface Workspace {
  access: Access
  preferences: Preferences
  companies: Company[]
  company: Company | null | undefined
}
