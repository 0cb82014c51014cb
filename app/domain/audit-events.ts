// audit_events/{id}: every administrative change (a company created, a person invited, a level
// changed, a key issued or revoked, an agent enrolled...), written by the functions in the same
// transaction as the change itself, never by a browser. Platform admins read them all; senior
// analysts those of every company and of the scanning fleet (`audience` 'analysts'); a company's
// admins those whose `companyId` is theirs (app/domain/access.ts, maySeeAuditEvent).
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'

export const AUDIT_EVENTS_COLLECTION = 'audit_events'

export const AUDIT_ACTIONS = [
  'company.created',
  'company.updated',
  'service.updated',
  'user.invited',
  'user.invitation_referred',
  'user.updated',
  'user.removed_from_company',
  'user.restored_to_company',
  'user.sessions_revoked',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'email_key.created',
  'email_key.revoked',
  'email_key.used',
  'dast_key.created',
  'dast_key.revoked',
  'api_token.created',
  'api_token.revoked',
  'api_token.used',
  'webhook.created',
  'webhook.secret_rotated',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.deleted',
  'vault_link.created',
  'vault_link.opened',
  'vault_link.open_failed',
  'vault_link.revoked',
  'vault_request.created',
  'vault_request.answered',
  'vault_request.revoked',
  'vault_request.opened',
  'location.created',
  'location.updated',
  'location.deleted',
  'agent.enrolment_issued',
  'agent.enrolled',
  'agent.disabled',
  'agent.enabled',
  'agent.rotated',
  'agent.removed',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/** How each action reads in an audit trail. */
export const auditActionLabels: Record<AuditAction, string> = {
  'company.created': 'Company created',
  'company.updated': 'Company changed',
  'service.updated': 'Service changed',
  'user.invited': 'Person invited',
  'user.invitation_referred': 'Invitation referred to platform admins',
  'user.updated': 'Access changed',
  'user.removed_from_company': 'Person removed',
  'user.restored_to_company': 'Person restored',
  'user.sessions_revoked': 'Sessions revoked',
  'user.disabled': 'Account disabled',
  'user.enabled': 'Account enabled',
  'user.deleted': 'Account deleted',
  'email_key.created': 'Email key created',
  'email_key.revoked': 'Email key revoked',
  'email_key.used': 'Email key used',
  'dast_key.created': 'DAST key created',
  'dast_key.revoked': 'DAST key revoked',
  'api_token.created': 'API token created',
  'api_token.revoked': 'API token revoked',
  'api_token.used': 'API token used',
  'webhook.created': 'Webhook endpoint added',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.disabled': 'Webhook endpoint disabled',
  'webhook.enabled': 'Webhook endpoint enabled',
  'webhook.deleted': 'Webhook endpoint deleted',
  'vault_link.created': 'Vault link created',
  'vault_link.opened': 'Vault link opened',
  'vault_link.open_failed': 'Vault link refused (wrong passphrase)',
  'vault_link.revoked': 'Vault link revoked',
  'vault_request.created': 'Vault request created',
  'vault_request.answered': 'Vault request answered',
  'vault_request.revoked': 'Vault request withdrawn',
  'vault_request.opened': 'Vault request answer opened',
  'location.created': 'Location added',
  'location.updated': 'Location changed',
  'location.deleted': 'Location deleted',
  'agent.enrolment_issued': 'Agent enrolment token created',
  'agent.enrolled': 'Agent enrolled',
  'agent.disabled': 'Agent disabled',
  'agent.enabled': 'Agent enabled',
  'agent.rotated': 'Agent credentials rotated',
  'agent.removed': 'Agent removed',
}

/** The same actions in a sentence, "<who> <verb> <target>", as the latest-changes feed reads them. */
export const auditActionVerbs: Record<AuditAction, string> = {
  'company.created': 'created the company',
  'company.updated': 'changed the company',
  'service.updated': 'changed the service',
  'user.invited': 'invited',
  'user.invitation_referred': 'asked the platform admins to add',
  'user.updated': 'changed the access of',
  'user.removed_from_company': 'removed from the company',
  'user.restored_to_company': 'restored to the company',
  'user.sessions_revoked': 'revoked the sessions of',
  'user.disabled': 'disabled',
  'user.enabled': 'enabled',
  'user.deleted': 'deleted',
  'email_key.created': 'added the email key',
  'email_key.revoked': 'revoked the email key',
  'email_key.used': 'signed in for the first time through the email key',
  'dast_key.created': 'issued the DAST key',
  'dast_key.revoked': 'revoked the DAST key',
  'api_token.created': 'issued the API token',
  'api_token.revoked': 'revoked the API token',
  'api_token.used': 'called the API with the token',
  'webhook.created': 'added the webhook endpoint',
  'webhook.secret_rotated': 'rotated the signing secret of the webhook endpoint',
  'webhook.disabled': 'disabled the webhook endpoint',
  'webhook.enabled': 'enabled the webhook endpoint',
  'webhook.deleted': 'deleted the webhook endpoint',
  'vault_link.created': 'created the vault link',
  'vault_link.opened': 'opened the vault link',
  'vault_link.open_failed': 'gave a wrong passphrase for the vault link',
  'vault_link.revoked': 'revoked the vault link',
  'vault_request.created': 'created the vault request',
  'vault_request.answered': 'answered the vault request',
  'vault_request.revoked': 'withdrew the vault request',
  'vault_request.opened': 'opened the answer to the vault request',
  'location.created': 'added the location',
  'location.updated': 'changed the location',
  'location.deleted': 'deleted the location',
  'agent.enrolment_issued': 'created an enrolment token for the agent',
  'agent.enrolled': 'enrolled (by their token) the agent',
  'agent.disabled': 'disabled the agent',
  'agent.enabled': 'enabled the agent',
  'agent.rotated': 'rotated the credentials of the agent',
  'agent.removed': 'removed the agent',
}

export const AUDIT_TARGET_KINDS = [
  'company',
  'service',
  'user',
  'email_key',
  'dast_key',
  'api_token',
  'webhook',
  'vault_link',
  'vault_request',
  'location',
  'agent',
] as const
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number]

/** The scanning fleet's targets: kept by senior analysts, so their events are theirs to read. */
const FLEET_TARGETS: readonly AuditTargetKind[] = ['location', 'agent']

/**
 * Who reads an event across companies besides the platform admins: 'analysts' (senior analysts,
 * who see every company and keep the fleet) or 'platform' (platform admins only: the service
 * catalogue, email keys, people outside any company). Stored so the rules can check it and a
 * query can ask for it.
 */
export const AUDIT_AUDIENCES = ['analysts', 'platform'] as const
export type AuditAudience = (typeof AUDIT_AUDIENCES)[number]

export const auditAudience = (event: Pick<AuditEventInput, 'companyId' | 'target'>): AuditAudience =>
  event.companyId !== null || FLEET_TARGETS.includes(event.target.kind) ? 'analysts' : 'platform'

/** A snapshot of what changed: plain JSON, secrets never included (a key's hash is not a snapshot field). */
export type AuditSnapshot = Record<string, unknown> | null

export interface AuditEventInput {
  actor: { uid: string; email: string | null }
  action: AuditAction
  target: { kind: AuditTargetKind; id: string; label?: string }
  /** The company the change belongs to, so that company's admins see it; null for platform-wide changes. */
  companyId: string | null
  before: AuditSnapshot
  after: AuditSnapshot
}

/** The stored document (createdAt is the server's time stamp, written by the caller's SDK). */
export const newAuditEventDocument = <Time>(event: AuditEventInput, createdAt: Time) => ({
  actorUid: event.actor.uid,
  actorEmail: event.actor.email,
  action: event.action,
  targetKind: event.target.kind,
  targetId: event.target.id,
  targetLabel: event.target.label ?? event.target.id,
  companyId: event.companyId,
  audience: auditAudience(event),
  before: event.before,
  after: event.after,
  createdAt,
})

const SnapshotSchema = v.nullable(v.record(v.string(), v.unknown()))

const StoredAuditEventSchema = v.object({
  actorUid: v.string(),
  actorEmail: v.optional(v.nullable(v.string()), null),
  action: v.picklist(AUDIT_ACTIONS),
  targetKind: v.picklist(AUDIT_TARGET_KINDS),
  targetId: v.string(),
  targetLabel: v.optional(v.string()),
  companyId: v.optional(v.nullable(v.string()), null),
  audience: v.optional(v.picklist(AUDIT_AUDIENCES), 'platform'),
  before: v.optional(SnapshotSchema, null),
  after: v.optional(SnapshotSchema, null),
  // Null while the server's time stamp is pending.
  createdAt: v.optional(v.nullable(TimestampSchema), null),
})

export interface AuditEvent {
  id: string
  actorUid: string
  actorEmail: string | null
  action: AuditAction
  target: { kind: AuditTargetKind; id: string; label: string }
  companyId: string | null
  audience: AuditAudience
  before: AuditSnapshot
  after: AuditSnapshot
  /** Epoch milliseconds, or null while unknown. */
  at: number | null
}

/** An audit event as the pages show it, or null when the document is not one. */
export function auditEventFromDocument(id: string, data: unknown): AuditEvent | null {
  const parsed = v.safeParse(StoredAuditEventSchema, data ?? {})
  if (!parsed.success) return null
  const e = parsed.output
  return {
    id,
    actorUid: e.actorUid,
    actorEmail: e.actorEmail,
    action: e.action,
    target: { kind: e.targetKind, id: e.targetId, label: e.targetLabel ?? e.targetId },
    companyId: e.companyId,
    audience: e.audience,
    before: e.before,
    after: e.after,
    at: e.createdAt,
  }
}
