// Which scan a service report shows and which it compares with, kept in the address bar so a
// comparison can be linked and reloaded (and the server renders the chosen scan). Unknown or
// malformed ids fall back to the latest scan and no comparison.
import * as v from 'valibot'

/** A stored document id: no slash, not empty, not absurdly long. The router may read digits as a number. */
const ScanIdParam = v.pipe(
  v.union([v.string(), v.pipe(v.number(), v.integer(), v.transform(String))]),
  v.minLength(1),
  v.maxLength(200),
  v.regex(/^[^/\s]+$/),
)

export const ScanChoiceSchema = v.object({
  scan: v.fallback(v.optional(ScanIdParam), undefined),
  compare: v.fallback(v.optional(ScanIdParam), undefined),
})

export type ScanChoice = v.InferOutput<typeof ScanChoiceSchema>
