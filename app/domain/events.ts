// events/{id}: what people did, newest first on their activity list. Written by the functions
// (a sign-in, say); each person reads their own.
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'

export const EVENTS_COLLECTION = 'events'

// The vault's: a link created, opened, refused (wrong passphrase) or revoked (by hand or by the
// tries); a request created, answered, withdrawn or its answer opened.
export const EVENT_TYPES = [
  'sign_in',
  'vault_link_created',
  'vault_link_opened',
  'vault_link_failed',
  'vault_link_revoked',
  'vault_request_created',
  'vault_request_answered',
  'vault_request_revoked',
  'vault_request_opened',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** An event as the functions write it (createdAt is the server's time stamp). */
export const newEventDocument = <Time>(type: EventType, uid: string, createdAt: Time) => ({ type, createdByUid: uid, createdAt })

const StoredEventSchema = v.object({
  type: v.optional(v.string(), 'unknown'),
  createdByUid: v.optional(v.string()),
  // Null while the server's time stamp is pending in the writing browser.
  createdAt: v.optional(v.nullable(TimestampSchema), null),
})

export interface ActivityEvent {
  id: string
  type: string
  /** Epoch milliseconds, or null while unknown. */
  at: number | null
}

/** An event document as the activity list shows it; unreadable fields read as unknown. */
export function eventFromDocument(id: string, data: unknown): ActivityEvent {
  const parsed = v.safeParse(StoredEventSchema, data ?? {})
  return parsed.success ? { id, type: parsed.output.type, at: parsed.output.createdAt } : { id, type: 'unknown', at: null }
}
