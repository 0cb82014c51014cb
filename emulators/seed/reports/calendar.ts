// The demo year: twelve monthly scans from December 2025 to November 2026, and "now" for the SLA
// states and expiring certificates: 20 November 2026, the day the seeded data ends.
import { DAY_MS } from '#domain/sla.ts'
import type { ServiceId } from '#domain/services.ts'

export const MONTHS = 12

export const SEED_NOW = Date.UTC(2026, 10, 20, 17, 0)

/** The first day of the demo month (0 = December 2025). */
export const monthStart = (month: number) => Date.UTC(2025, 11 + month, 1)

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** "March 2026". */
export function monthLabel(month: number): string {
  const date = new Date(monthStart(month))
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCFullYear()}`
}

export const monthId = (month: number) => new Date(monthStart(month)).toISOString().slice(0, 7)

// Each service runs on its own day of the month, at night.
const SCAN_DAY: Record<ServiceId, number> = { projectmariana: 2, network: 3, dast: 4, cloud: 5, password_cracking: 6 }

/** When the month's scan started (02:00 UTC on its service's day). */
export const scanStartedAt = (service: ServiceId, month: number) => monthStart(month) + (SCAN_DAY[service] - 1) * DAY_MS + 2 * 3_600_000

/** Scans finish within hours and are published the next working morning. */
export const scanFinishedAt = (service: ServiceId, month: number) => scanStartedAt(service, month) + 5 * 3_600_000

export const scanPublishedAt = (service: ServiceId, month: number) => scanStartedAt(service, month) + DAY_MS + 7 * 3_600_000

/** The draft analysts are still reviewing: started two days before the seed's "now". */
export const draftStartedAt = (service: ServiceId) => SEED_NOW - 2 * DAY_MS - SCAN_DAY[service] * 3_600_000
