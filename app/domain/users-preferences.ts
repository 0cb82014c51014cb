// users_preferences/{uid}: what a person chose for themselves (the colour scheme stays in the
// browser), when they last saw their dashboard and which notifications they want. Written by its
// owner, with the edit stamps every record carries.
import * as v from 'valibot'
import { readNotificationChoices } from './notifications.ts'
import { TimestampSchema } from './stored.ts'

export const USERS_PREFERENCES_COLLECTION = 'users_preferences'

export const userPreferencesPath = (uid: string) => `${USERS_PREFERENCES_COLLECTION}/${uid}`

const PreferencesSchema = v.object({
  defaultCompany: v.optional(v.nullable(v.string()), null),
  displayName: v.optional(v.string(), ''),
  photoURL: v.optional(v.string(), ''),
  /** When the person last saw their dashboard (a server time); null before the first visit. */
  lastVisitAt: v.optional(v.nullable(TimestampSchema)),
  /** Which notifications reach them, and how: stored partly, completed with the defaults. */
  notifications: v.pipe(v.optional(v.unknown()), v.transform(readNotificationChoices)),
})

export type Preferences = v.InferOutput<typeof PreferencesSchema>

/** A users_preferences document as stored; a missing document reads as the defaults. */
export const readPreferences = (data: unknown): Preferences => v.parse(PreferencesSchema, data ?? {})
