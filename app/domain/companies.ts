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

/** The company a companies/{slug} document holds, or null when it is not a readable company. */
export function companyFromDocument(slug: string, data: unknown): Company | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(CompanySchema, { ...data, slug })
  return parsed.success ? parsed.output : null
}
