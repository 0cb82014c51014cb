// companies/{slug}: a client company, its name and its service switches (the feature
// flags, COMPANY_FLAGS in the permission module).
import * as v from 'valibot'
import { COMPANY_FLAGS, type CompanyFlag } from './access.ts'

export const COMPANIES_COLLECTION = 'companies'

export const companyPath = (slug: string) => `${COMPANIES_COLLECTION}/${slug}`

const flagEntries = Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, v.optional(v.boolean(), false)])) as Record<
  CompanyFlag,
  v.OptionalSchema<v.BooleanSchema<undefined>, false>
>

const CompanySchema = v.object({
  slug: v.string(),
  companyName: v.string(),
  ...flagEntries,
})

export type Company = v.InferOutput<typeof CompanySchema>

/**
 * A company's SLA policy for findings known to be exploited (CISA KEV): due within `kevSlaDays` of
 * becoming known (kevSlaClock in sla.ts); null, or unreadable: as any other finding. Apart from
 * the company above: only the daily intelligence refresh reads it.
 */
export const KEV_SLA_DAYS_MAX = 365
export const KevSlaDaysSchema = v.pipe(
  v.number('Give the days as a number.'),
  v.integer('Give whole days.'),
  v.minValue(1, `Between 1 and ${KEV_SLA_DAYS_MAX} days.`),
  v.maxValue(KEV_SLA_DAYS_MAX, `Between 1 and ${KEV_SLA_DAYS_MAX} days.`),
)
const KevSlaSchema = v.object({ kevSlaDays: v.optional(v.nullable(KevSlaDaysSchema), null) })

export function kevSlaDaysOf(data: unknown): number | null {
  const parsed = v.safeParse(KevSlaSchema, data ?? {})
  return parsed.success ? parsed.output.kevSlaDays : null
}

/** The company a companies/{slug} document holds, or null when it is not a readable company. */
export function companyFromDocument(slug: string, data: unknown): Company | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(CompanySchema, { ...data, slug })
  return parsed.success ? parsed.output : null
}
