import * as v from 'valibot'
import { PHOTO_URL_MAX } from '#domain/photos.ts'

// The same bounds as the security rules for users_preferences.
export const DISPLAY_NAME_MAX = 100

export const DisplayNameSchema = v.pipe(v.string(), v.maxLength(DISPLAY_NAME_MAX, `At most ${DISPLAY_NAME_MAX} characters.`))

/** Empty means no photo. */
export const PhotoUrlSchema = v.union([
  v.literal(''),
  v.pipe(
    v.string(),
    v.maxLength(PHOTO_URL_MAX, `At most ${PHOTO_URL_MAX} characters.`),
    v.url('Enter a full address, like https://example.com/me.png.'),
    v.startsWith('https://', 'The address must start with https://.'),
  ),
])

/** The first problem with `value` (for a union, the message of the branch it came closest to), in words for the person; null when it may be saved. */
export function problemWith(schema: v.GenericSchema<string>, value: string): string | null {
  const result = v.safeParse(schema, value)
  if (result.success) return null
  const issue = result.issues[0]
  return issue.issues?.find((branch) => branch.input === value && branch.type !== 'literal')?.message ?? issue.message
}
