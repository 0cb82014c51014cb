// notifications/{id}: what the product tells one person (in the app, and by email when they chose
// it): a scan published, a new critical or high finding, an SLA due soon or breached, a retest
// completed, a mention in a comment. Written by the functions; each person reads and marks read
// their own. Which kinds reach them, and how, is their choice in users_preferences.notifications.
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'

export const NOTIFICATIONS_COLLECTION = 'notifications'

export const notificationPath = (id: string) => `${NOTIFICATIONS_COLLECTION}/${id}`

export const NOTIFICATION_TYPES = [
  'scan_published',
  'new_critical_or_high',
  'sla_due_soon',
  'sla_breached',
  'retest_completed',
  'mention',
] as const
export type NotificationType = (typeof NOTIFICATION_TYPES)[number]

export const notificationTypeLabels: Record<NotificationType, string> = {
  scan_published: 'A scan is published',
  new_critical_or_high: 'A new critical or high finding',
  sla_due_soon: 'An SLA is due soon',
  sla_breached: 'An SLA is breached',
  retest_completed: 'A retest is completed',
  mention: 'Someone mentions me in a comment',
}

export const NOTIFICATION_CHANNELS = ['inApp', 'email'] as const
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number]

export type NotificationChoices = Record<NotificationType, Record<NotificationChannel, boolean>>

/** Everything in the app; by email only what needs acting on. */
export const DEFAULT_NOTIFICATION_CHOICES: NotificationChoices = {
  scan_published: { inApp: true, email: true },
  new_critical_or_high: { inApp: true, email: true },
  sla_due_soon: { inApp: true, email: false },
  sla_breached: { inApp: true, email: true },
  retest_completed: { inApp: true, email: true },
  mention: { inApp: true, email: true },
}

const ChoicesSchema = v.object(
  Object.fromEntries(
    NOTIFICATION_TYPES.map((type) => [
      type,
      v.optional(
        v.object({
          inApp: v.optional(v.boolean(), DEFAULT_NOTIFICATION_CHOICES[type].inApp),
          email: v.optional(v.boolean(), DEFAULT_NOTIFICATION_CHOICES[type].email),
        }),
        DEFAULT_NOTIFICATION_CHOICES[type],
      ),
    ]),
  ) as unknown as Record<NotificationType, v.GenericSchema<unknown, Record<NotificationChannel, boolean>>>,
)

/** A person's choices as stored (partial), completed with the defaults. */
export function readNotificationChoices(data: unknown): NotificationChoices {
  const parsed = v.safeParse(ChoicesSchema, data ?? {})
  return parsed.success ? (parsed.output as NotificationChoices) : DEFAULT_NOTIFICATION_CHOICES
}

const StoredNotificationSchema = v.object({
  uid: v.string(),
  type: v.picklist(NOTIFICATION_TYPES),
  company: v.string(),
  service: v.optional(v.nullable(v.string()), null),
  title: v.string(),
  body: v.optional(v.string(), ''),
  /** A same-site path into the reports. */
  link: v.string(),
  read: v.optional(v.boolean(), false),
  createdAt: TimestampSchema,
})

export type AppNotification = v.InferOutput<typeof StoredNotificationSchema> & { id: string }

export function notificationFromDocument(id: string, data: unknown): AppNotification | null {
  const parsed = v.safeParse(StoredNotificationSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}
