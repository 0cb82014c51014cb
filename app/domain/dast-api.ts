// The DAST API a client's CI pipeline calls with a DAST key (decision 0021), or with an API token
// that has the dast:trigger scope (decision 0050: any target within the company's scan scope):
//   POST /api/v1/dast/scans {target, location?}  → 202 {id, status, statusUrl}
//   GET  /api/v1/dast/scans/<id>                 → {id, status, target, summary?, newFindings?}
// Refusals carry a status and a sentence: unknown, expired or revoked key (401), target outside the
// key's allowed targets or the company's scope, or a company without DAST triggering (403), too
// many scans at once for the key or too many requests (429), no agent online at a location that
// serves the key's company (409). The client API's OpenAPI document (client-api-openapi.ts) describes it too.
import * as v from 'valibot'
import { canonicalScanTarget } from './scan-scope.ts'
import { SEVERITIES } from './template-vocabulary.ts'

/** The longest target the API takes. */
export const DAST_TARGET_MAX = 2_048

/** Scans one key may have waiting or running at once. */
export const DAST_SCANS_AT_ONCE = 2

export const dastApiMessages = {
  noKey: 'Send a DAST key: Authorization: Bearer bwk_dast_… (or an API token with the dast:trigger scope).',
  noScope: 'This API token does not have the dast:trigger scope.',
  unknownKey: 'This DAST key is not known.',
  expired: 'This DAST key has expired: create a new one on the DAST keys page.',
  revoked: 'This DAST key was revoked.',
  notTriggering: 'DAST triggering is not turned on for this company.',
  target: 'This target is not among the key’s allowed targets, or is outside the company’s scan scope.',
  rateLimited: `This key has ${DAST_SCANS_AT_ONCE} scans waiting or running: wait for one to finish.`,
  tooManyRequests: 'Too many requests: wait a minute and try again.',
  ambiguousTarget:
    'This target is not a host name, address or http(s) URL that every parser reads alike: no user name, backslash, space or percent sign in its host part.',
  noAgent: 'No scanning agent is online to run this scan now: try again later.',
  notSetUp: 'DAST keys are not set up on this server.',
  noScan: 'There is no such scan for this key’s company.',
} as const

export const DastScanRequestSchema = v.strictObject({
  /** Stored and scanned in its canonical form (decision 0034); a target parsers could read differently is refused. */
  target: v.pipe(
    v.string('Name the target to scan.'),
    v.trim(),
    v.minLength(1, 'Name the target to scan.'),
    v.maxLength(DAST_TARGET_MAX),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const canonical = canonicalScanTarget(dataset.value)
      if (canonical === null) {
        addIssue({ message: dastApiMessages.ambiguousTarget })
        return NEVER
      }
      return canonical
    }),
  ),
  location: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a location id.'))),
})

const SeverityCounts = v.object(
  Object.fromEntries(SEVERITIES.map((s) => [s, v.number()])) as Record<(typeof SEVERITIES)[number], v.NumberSchema<undefined>>,
)

/** A triggered scan's status as the API answers it (a leased job is running). */
export const DAST_SCAN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const

export const DastScanStatusSchema = v.object({
  id: v.string(),
  status: v.picklist(DAST_SCAN_STATUSES),
  target: v.string(),
  createdAt: v.string(),
  finishedAt: v.nullable(v.string()),
  error: v.nullable(v.string()),
  /** When it succeeded: the findings by severity, and those the company has never had before. */
  summary: v.optional(v.object({ total: v.number(), bySeverity: SeverityCounts, new: v.number(), newBySeverity: SeverityCounts })),
  newFindings: v.optional(v.array(v.object({ title: v.string(), severity: v.picklist(SEVERITIES), location: v.string() }))),
})
export type DastScanStatus = v.InferOutput<typeof DastScanStatusSchema>
