// The one way the functions record an administrative change: inside the transaction that makes
// the change, so an audit event exists for every change that happened and for none that failed.
import { FieldValue, type Firestore, type Transaction, type WriteBatch } from 'firebase-admin/firestore'
import { AUDIT_EVENTS_COLLECTION, newAuditEventDocument, type AuditEventInput } from '#domain/audit-events.ts'

export function recordAuditEvent(db: Firestore, tx: Transaction | WriteBatch, event: AuditEventInput): void {
  tx.create(db.collection(AUDIT_EVENTS_COLLECTION).doc(), newAuditEventDocument(event, FieldValue.serverTimestamp()))
}
