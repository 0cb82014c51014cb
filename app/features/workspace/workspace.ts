import * as v from 'valibot'
import type { Access, CompanyFlags } from '#domain/access.ts'

/** users_access/{uid}, as the app uses it. */
export const UserAccessSchema = v.object({
  claims: v.optional(
    v.object({
      accessLevel: v.optional(v.nullable(v.number())),
      userType: v.optional(v.nullable(v.picklist(['client', 'analyst']))),
    }),
    {},
  ),
  companies: v.optional(v.array(v.string()), []),
  servicesEnabled: v.optional(v.array(v.string()), []),
  servicesManaged: v.optional(v.array(v.string()), []),
})

const flag = v.optional(v.boolean(), false)

export const CompanySchema = v.object({
  slug: v.string(),
  companyName: v.string(),
  enableViewProjectMarianaResults: flag,
  enableViewProjectMarianaStats: flag,
  enableDast: flag,
  enableDastTriggering: flag,
  enableViewResultsNetwork: flag,
  enableViewCloudScanStats: flag,
  enableViewCloudScanResults: flag,
  enableViewResultsPasswordCracking: flag,
})

/** users_preferences/{uid}: what the person chose for themselves (the colour scheme stays in the browser). */
export const PreferencesSchema = v.object({
  defaultCompany: v.optional(v.nullable(v.string()), null),
  displayName: v.optional(v.string(), ''),
  photoURL: v.optional(v.string(), ''),
})

export type Preferences = v.InferOutput<typeof PreferencesSchema>

export type Company = v.InferOutput<typeof CompanySchema> & CompanyFlags

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

/**
 * Access as the permission module reads it. The document's claims win over the token's: an
 * administrator's change shows at once, while the token catches up at its next refresh (the
 * security rules, which decide what data can be read, go by the token).
 */
export function accessOf(doc: v.InferOutput<typeof UserAccessSchema>, token: { accessLevel: number; userType: 'client' | 'analyst' }): Access {
  return {
    accessLevel: doc.claims.accessLevel ?? token.accessLevel,
    userType: doc.claims.userType ?? token.userType,
    servicesEnabled: doc.servicesEnabled,
    servicesManaged: doc.servicesManaged,
  }
}
