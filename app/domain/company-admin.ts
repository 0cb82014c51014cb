// The company administration contract (/admin/company and /admin/company/create-company): how a
// company's slug is derived from its name, what the company callables take and answer, and the
// messages people see, the same in the browser's forms and in the functions.
import * as v from 'valibot'
import { COMPANY_FLAGS, type CompanyFlag } from './access.ts'
import { KevSlaDaysSchema } from './companies.ts'
import { ScanScopeSchema, ScopeEntrySchema } from './scan-scope.ts'
import { companySlugSchema } from './company-slug.ts'

export const COMPANY_NAME_MAX = 120
export const SLUG_MAX = 40

export const companyMessages = {
  nameRequired: 'Enter the company name.',
  nameTooLong: `A company name has at most ${COMPANY_NAME_MAX} characters.`,
  slug: 'Name the company by its slug.',
  noCompany: (slug: string) => `There is no company "${slug}".`,
  noSlugLeft: 'Every slug for this name is taken: choose a more distinctive name.',
  nothingToChange: 'Change at least one thing.',
} as const

export const CompanyNameSchema = v.pipe(
  v.string(companyMessages.nameRequired),
  v.trim(),
  v.minLength(1, companyMessages.nameRequired),
  v.maxLength(COMPANY_NAME_MAX, companyMessages.nameTooLong),
)

export const CompanySlugSchema = companySlugSchema(companyMessages.slug)

/**
 * The slug a company name gives: ASCII lowercase letters and digits joined by single hyphens,
 * accents dropped, at most 40 characters; `company` when nothing is left. Uniqueness is the
 * server's: it adds -2, -3... to a slug already taken.
 */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '')
  return slug || 'company'
}

/** The slugs tried in turn for a name: its own, then with -2 to -20. */
export function slugCandidates(name: string): string[] {
  const base = slugFromName(name)
  return [base, ...Array.from({ length: 19 }, (_, i) => `${base.slice(0, SLUG_MAX - 3)}-${i + 2}`)]
}

const flagEntries = <S extends v.GenericSchema>(schema: () => S) =>
  Object.fromEntries(COMPANY_FLAGS.map((flag) => [flag, schema()])) as Record<CompanyFlag, S>

const FlagsSchema = v.strictObject(flagEntries(() => v.boolean('A service switch is on or off.')))
const FlagChangesSchema = v.strictObject(flagEntries(() => v.optional(v.boolean('A service switch is on or off.'))))

export const CreateCompanyRequestSchema = v.strictObject({
  companyName: CompanyNameSchema,
  flags: FlagsSchema,
  scanScope: ScanScopeSchema,
})
export type CreateCompanyRequest = v.InferInput<typeof CreateCompanyRequestSchema>
export const CreateCompanyResponseSchema = v.strictObject({ slug: v.string() })

/** A rename and switch changes: only what is named changes, so two people switching different flags both win. */
export const UpdateCompanyRequestSchema = v.pipe(
  v.strictObject({
    company: CompanySlugSchema,
    companyName: v.optional(CompanyNameSchema),
    flags: v.optional(FlagChangesSchema),
    /** Its SLA policy's deadline for findings known to be exploited; null: none. */
    kevSlaDays: v.optional(v.nullable(KevSlaDaysSchema)),
  }),
  v.check(
    (request) =>
      request.companyName !== undefined ||
      request.kevSlaDays !== undefined ||
      Object.values(request.flags ?? {}).some((flag) => flag !== undefined),
    companyMessages.nothingToChange,
  ),
)
export const UpdateCompanyResponseSchema = v.strictObject({ changed: v.boolean() })

/** Scope entries added and removed in one change: concurrent edits of other entries are kept. */
export const UpdateScanScopeRequestSchema = v.pipe(
  v.strictObject({
    company: CompanySlugSchema,
    add: v.optional(v.pipe(v.array(ScopeEntrySchema), v.maxLength(100, 'Add at most 100 entries at a time.')), []),
    remove: v.optional(v.pipe(v.array(ScopeEntrySchema), v.maxLength(500, 'Remove at most 500 entries at a time.')), []),
  }),
  v.check((request) => request.add.length + request.remove.length > 0, companyMessages.nothingToChange),
)
export const UpdateScanScopeResponseSchema = v.strictObject({ entries: v.number() })

/** What each switch turns on, as the administration pages name it. */
export const COMPANY_FLAG_LABELS: Record<CompanyFlag, string> = {
  enableViewProjectMarianaResults: 'Attack surface results',
  enableViewProjectMarianaStats: 'Attack surface statistics',
  enableDast: 'DAST results',
  enableDastTriggering: 'DAST triggering from pipelines',
  enableViewResultsNetwork: 'Network results',
  enableViewCloudScanStats: 'Cloud statistics',
  enableViewCloudScanResults: 'Cloud results',
  enableViewResultsPasswordCracking: 'Password cracking results',
}
