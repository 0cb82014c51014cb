// What an audit event changed, as the trail's lines read it.
import type { AuditEvent } from '#domain/audit-events.ts'

/** A value in one line; a key absent on one side (added or dropped by the change) reads as a dash. */
const brief = (value: unknown) => {
  const text = value === undefined ? '—' : (JSON.stringify(value) ?? String(value))
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
}

/** What changed, one `key: before → after` per changed key. */
export function auditChanges(event: Pick<AuditEvent, 'before' | 'after'>): string[] {
  const keys = [...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})])]
  return keys.map((key) => {
    const before = event.before?.[key]
    const after = event.after?.[key]
    if (event.before === null) return `${key}: ${brief(after)}`
    return `${key}: ${brief(before)} → ${brief(after)}`
  })
}
