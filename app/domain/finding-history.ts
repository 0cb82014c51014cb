// companies/{slug}/findings/{id}/history/{id}: every change of a finding (status, severity), who
// made it, when, from what, to what and why. Written with the change, in the same transaction;
// never edited. (Not "events": a collection group of that name would mix with the top-level
// activity events.) Each entry names its company, service and finding, so one collection-group
// query reads the histories of many findings at once (the JSON export), under the same rules.
import * as v from 'valibot'
import { FINDING_STATUSES } from './findings.ts'
import { findingPath } from './findings.ts'
import { TimestampSchema } from './stored.ts'

export const FINDING_HISTORY_COLLECTION = 'history'

export const findingHistoryPath = (company: string, findingId: string) => `${findingPath(company, findingId)}/${FINDING_HISTORY_COLLECTION}`

const StoredHistorySchema = v.object({
  company: v.optional(v.string()),
  service: v.optional(v.string()),
  findingId: v.optional(v.string()),
  action: v.string(),
  from: v.picklist(FINDING_STATUSES),
  to: v.picklist(FINDING_STATUSES),
  at: TimestampSchema,
  byUid: v.string(),
  byName: v.string(),
  role: v.picklist(['viewer', 'manager', 'company-admin', 'analyst', 'system']),
  note: v.optional(v.nullable(v.string()), null),
  scanId: v.optional(v.string()),
  retestId: v.optional(v.string()),
  /** For a severity change: the severities before and after. */
  severityFrom: v.optional(v.string()),
  severityTo: v.optional(v.string()),
})

export type FindingHistoryEntry = v.InferOutput<typeof StoredHistorySchema> & { id: string }

export function historyFromDocument(id: string, data: unknown): FindingHistoryEntry | null {
  const parsed = v.safeParse(StoredHistorySchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** A history entry as stored: the change, with whose it is (for collection-group reads). */
export const storedHistoryEntry = <Change extends object>(company: string, service: string, findingId: string, change: Change) => ({
  ...change,
  company,
  service,
  findingId,
})
