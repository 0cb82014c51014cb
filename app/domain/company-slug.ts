// A company's slug, as requests, paths and rules name the company: lower-case letters, digits and
// hyphens, 63 at most, starting with a letter or digit (a DNS label, so it fits in addresses).
import * as v from 'valibot'

export const COMPANY_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/

/** A request's company slug; `message` is what a person reads when it is not one. */
export const companySlugSchema = (message: string) => v.pipe(v.string(message), v.regex(COMPANY_SLUG_PATTERN, message))
