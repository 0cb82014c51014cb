// companies/{slug}/activity/{id}: what happened in a company's services, newest first: scans
// published, findings new or fixed, retests requested and completed, risk acceptances, SLA
// breaches. Figures and titles only, so stats-only readers of the service read it too; the home
// dashboard shows what came since the person's last visit. Written by the functions only.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import { ServiceIdSchema } from './services.ts'
import { TimestampSchema } from './stored.ts'

export const COMPANY_ACTIVITY_COLLECTION = 'activity'

export const companyActivityPath = (company: string) => `${companyPath(company)}/${COMPANY_ACTIVITY_COLLECTION}`

export const COMPANY_ACTIVITY_TYPES = [
  'scan_published',
  'findings_new',
  'findings_fixed',
  'retest_requested',
  'retest_completed',
  'acceptance_requested',
  'acceptance_decided',
  'sla_breached',
] as const
export type CompanyActivityType = (typeof COMPANY_ACTIVITY_TYPES)[number]

const StoredActivitySchema = v.object({
  type: v.picklist(COMPANY_ACTIVITY_TYPES),
  service: ServiceIdSchema,
  /** One line, e.g. "Monthly external scan published: 3 new, 12 fixed". */
  summary: v.string(),
  /** How many findings the change concerns (a published scan's: all it holds; a retest's: those retested). */
  count: v.optional(v.number(), 1),
  scanId: v.optional(v.nullable(v.string()), null),
  findingId: v.optional(v.nullable(v.string()), null),
  retestId: v.optional(v.nullable(v.string()), null),
  at: TimestampSchema,
  byName: v.optional(v.string(), ''),
})

export type CompanyActivity = v.InferOutput<typeof StoredActivitySchema> & { id: string }

export function companyActivityFromDocument(id: string, data: unknown): CompanyActivity | null {
  const parsed = v.safeParse(StoredActivitySchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** Kinds that are one change each however many findings they hold: a scan published, a retest. */
const ONE_EACH: ReadonlySet<CompanyActivityType> = new Set(['scan_published', 'retest_requested', 'retest_completed'])

/**
 * How many of its kind one activity record is: a scan or a retest is one, whatever its `count`
 * of findings says; any other change is as many as the findings it concerns.
 */
export const activityTally = (item: Pick<CompanyActivity, 'type' | 'count'>): number => (ONE_EACH.has(item.type) ? 1 : item.count)
