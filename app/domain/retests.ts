// companies/{slug}/retests/{id}: a client's request that the analysts test findings again. The
// findings' SLA clocks stand still while it is open; it is due after the company's turnaround
// (DEFAULT_RETEST_TURNAROUND_DAYS by default) and ends with an outcome per finding. Written by
// the report callables only.
import * as v from 'valibot'
import { companyPath } from './companies.ts'
import { ServiceIdSchema } from './services.ts'
import { TimestampSchema } from './stored.ts'

export const RETESTS_COLLECTION = 'retests'

export const retestsPath = (company: string) => `${companyPath(company)}/${RETESTS_COLLECTION}`
export const retestPath = (company: string, id: string) => `${retestsPath(company)}/${id}`

/** Requested: waiting on the analysts. Completed: every finding has its outcome. */
export const RETEST_STATES = ['requested', 'completed', 'cancelled'] as const
export type RetestState = (typeof RETEST_STATES)[number]

export const RETEST_OUTCOMES = ['fixed', 'partially_fixed', 'not_fixed'] as const
export type RetestOutcome = (typeof RETEST_OUTCOMES)[number]

export const retestOutcomeLabels: Record<RetestOutcome, string> = {
  fixed: 'Fixed',
  partially_fixed: 'Partly fixed',
  not_fixed: 'Not fixed',
}

/** Findings one request may hold. */
export const RETEST_MAX_FINDINGS = 100

const ResultSchema = v.object({
  findingId: v.string(),
  outcome: v.picklist(RETEST_OUTCOMES),
  note: v.optional(v.string(), ''),
  at: TimestampSchema,
  byUid: v.string(),
  byName: v.string(),
})

const StoredRetestSchema = v.object({
  service: ServiceIdSchema,
  findingIds: v.array(v.string()),
  /** Titles at request time, so the queue reads without a finding per row. */
  findingTitles: v.optional(v.array(v.string()), []),
  state: v.picklist(RETEST_STATES),
  note: v.string(),
  requestedByUid: v.string(),
  requestedByName: v.string(),
  requestedAt: TimestampSchema,
  dueAt: TimestampSchema,
  results: v.optional(v.array(ResultSchema), []),
  completedAt: v.optional(v.nullable(TimestampSchema), null),
  completedByName: v.optional(v.nullable(v.string()), null),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})

export type StoredRetest = v.InferOutput<typeof StoredRetestSchema>
export type RetestResult = v.InferOutput<typeof ResultSchema>

export interface Retest extends StoredRetest {
  id: string
}

export function retestFromDocument(id: string, data: unknown): Retest | null {
  const parsed = v.safeParse(StoredRetestSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}
