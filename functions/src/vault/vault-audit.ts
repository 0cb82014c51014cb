// The vault's entries in the company's audit trail (audit_events): who created, opened, failed to
// open or revoked each link and request. Written in the commit that makes the change; metadata
// only (label, views, address, browser), never a token, key or ciphertext.
import type { Firestore, Transaction, WriteBatch } from 'firebase-admin/firestore'
import type { AuditAction, AuditSnapshot } from '#domain/audit-events.ts'
import { recordAuditEvent } from '../admin/audit.ts'

/** A link or a request, as far as the trail names it. */
export interface VaultAuditSubject {
  id: string
  company: string
  label: string
}

/** Who acted: an analyst by uid, or a recipient who may be signed out (uid empty). */
export interface VaultActor {
  uid: string | null
  email: string | null
}

export function recordVaultAudit(
  db: Firestore,
  tx: Transaction | WriteBatch,
  action: Extract<AuditAction, `vault_${string}`>,
  subject: VaultAuditSubject,
  actor: VaultActor,
  after: AuditSnapshot = null,
): void {
  recordAuditEvent(db, tx, {
    actor: { uid: actor.uid ?? '', email: actor.email },
    action,
    target: { kind: action.startsWith('vault_link.') ? 'vault_link' : 'vault_request', id: subject.id, label: subject.label },
    companyId: subject.company,
    before: null,
    after,
  })
}
