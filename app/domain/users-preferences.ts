// users_preferences/{uid}: what a person chose for themselves (the colour scheme stays in the
// browser). Written by its owner, with the edit stamps every record carries.
import * as v from 'valibot'

export const USERS_PREFERENCES_COLLECTION = 'users_preferences'

export const userPreferencesPath = (uid: string) => `${USERS_PREFERENCES_COLLECTION}/${uid}`

const PreferencesSchema = v.object({
  defaultCompany: v.optional(v.nullable(v.string()), null),
  displayName: v.optional(v.string(), ''),
  photoURL: v.optional(v.string(), ''),
})

export type Preferences = v.InferOutput<typeof PreferencesSchema>

/** A users_preferences document as stored; a missing document reads as the defaults. */
export const readPreferences = (data: unknown): Preferences => v.parse(PreferencesSchema, data ?? {})
