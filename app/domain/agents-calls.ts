// The contracts of the fleet callables (#domain/callables.ts, decision 0021): locations, enrolment
// tokens and agent administration for senior analysts (the /analyst/agents and /analyst/locations
// rule), and queueing a scan for those who may import the profile's service in the company.
import * as v from 'valibot'
import { pageRules, type Access } from './access.ts'
import { SealedBoxSchema } from './agent-sealing.ts'
import { LocationFieldsSchema } from './agents.ts'
import { SCAN_PROFILE_IDS, type ScanProfile } from './scan-jobs.ts'
import { mayImportAnyScans } from './scan-import-calls.ts'
import { companySlugSchema } from './company-slug.ts'

export const mayManageFleet = (access: Access | null | undefined) => pageRules['/analyst/agents']?.({ access, company: null }) ?? false
export const mayQueueScans = (access: Access) => mayImportAnyScans(access)

const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a valid id'))
const CompanySlug = companySlugSchema('Name the company by its slug')

export const SaveLocationRequestSchema = v.strictObject({ id: v.optional(Id), ...LocationFieldsSchema.entries })
export const SaveLocationResponseSchema = v.strictObject({ id: v.string() })

export const DeleteLocationRequestSchema = v.strictObject({ id: Id })
export const DeleteLocationResponseSchema = v.strictObject({ deleted: v.boolean() })

export const CreateEnrolmentRequestSchema = v.strictObject({
  locationId: Id,
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Name the agent.'), v.maxLength(100, 'At most 100 characters.')),
})
export const CreateEnrolmentResponseSchema = v.strictObject({
  /** Shown once: only its SHA-256 is stored. */
  token: v.string(),
  expiresAt: v.number(),
})

export const AgentActionRequestSchema = v.strictObject({
  agentId: Id,
  action: v.picklist(['disable', 'enable', 'rotate', 'remove']),
})
export const AgentActionResponseSchema = v.strictObject({
  /** After `rotate`: a new enrolment token for this agent, shown once. */
  token: v.nullable(v.string()),
  expiresAt: v.nullable(v.number()),
})

export const QueueScanRequestSchema = v.strictObject({
  company: CompanySlug,
  profile: v.picklist(SCAN_PROFILE_IDS as [ScanProfile, ...ScanProfile[]], 'Choose a scan profile.'),
  locationId: Id,
  targets: v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(2_048))),
    v.minLength(1, 'Choose at least one target.'),
    v.maxLength(50, 'At most 50 targets in one scan.'),
  ),
})
export const QueueScanResponseSchema = v.strictObject({ jobId: v.string() })

/** Sealed password audit inputs an agent takes (base64url characters): room for a few MB of hashes and words under the callable's 10 MB. */
export const MAX_SEALED_AUDIT_CHARS = 8 * 1024 * 1024

/** A password audit run by one agent: the hash file, word list and settings sealed to that agent's key in the browser. */
export const QueuePasswordAuditRequestSchema = v.strictObject({
  company: CompanySlug,
  agentId: Id,
  sealed: v.pipe(
    SealedBoxSchema,
    v.check((box) => box.ct.length <= MAX_SEALED_AUDIT_CHARS, 'The hash file and word list are too large for an agent job (at most 6 MB).'),
  ),
})
export const QueuePasswordAuditResponseSchema = v.strictObject({ jobId: v.string() })

export const CancelScanRequestSchema = v.strictObject({ jobId: Id })
export const CancelScanResponseSchema = v.strictObject({ cancelled: v.boolean() })
