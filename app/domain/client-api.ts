// The client API a company's tools call with an API token (decision 0050), under /api/v1 on the
// app's origin, answered by the clientApi function:
//   GET /api/v1/findings?service=&status=&severity=&limit=&cursor=  → {data: [finding], nextCursor}
//   GET /api/v1/findings/<id>                                       → finding with its history
//   GET /api/v1/scans?service=&limit=&cursor=                       → {data: [scan], nextCursor}
// Every refusal is {error: {code, message}} with the status of its code; 429 carries Retry-After.
// The OpenAPI document (client-api-openapi.ts) states the same shapes.
import * as v from 'valibot'
import { apiTokenMessages } from './api-tokens.ts'
import { FINDING_STATUSES } from './finding-statuses.ts'
import type { FindingHistoryEntry } from './finding-history.ts'
import type { Finding } from './findings.ts'
import type { Scan } from './scans.ts'
import { ServiceIdSchema } from './services.ts'
import { SEVERITIES } from './template-vocabulary.ts'

/** Items a page holds at most, and when the client names no limit. */
export const API_PAGE = { max: 100, default: 50 } as const

/** History entries a finding answers with at most, oldest first. */
export const API_HISTORY_LIMIT = 200

/** Calls a minute: per token (taken from the token's form before it is read) and per caller IP. */
export const CLIENT_API_LIMITS = { perToken: 120, perIp: 240, windowMs: 60_000 } as const

export const API_ERROR_CODES = {
  unauthenticated: 401,
  token_expired: 401,
  token_revoked: 401,
  missing_scope: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_request: 400,
  rate_limited: 429,
  server_error: 500,
  unavailable: 503,
} as const
export type ApiErrorCode = keyof typeof API_ERROR_CODES

export const clientApiMessages = {
  noToken: 'Send an API token: Authorization: Bearer bwk_api_….',
  unknownToken: 'This API token is not known.',
  expired: apiTokenMessages.expired,
  revoked: apiTokenMessages.revoked,
  missingScope: (scope: string) => `This API token does not have the ${scope} scope.`,
  serviceClosed: 'The company’s results of this service are not open to API tokens.',
  noFinding: 'There is no such finding for this token’s company.',
  noRoute: 'There is no such call: see /api/v1/openapi.json.',
  badCursor: 'This cursor is not one this API gave.',
  tooManyRequests: 'Too many requests: wait a minute and try again.',
  notSetUp: 'API tokens are not set up on this server.',
  failed: 'The server failed; try again.',
} as const

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string }
}

export const apiError = (code: ApiErrorCode, message: string): { status: number; body: ApiErrorBody } => ({
  status: API_ERROR_CODES[code],
  body: { error: { code, message } },
})

/** A document id as a cursor or a finding's id in a path. */
export const API_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/

const Limit = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,3}$/, `limit is a whole number from 1 to ${API_PAGE.max}.`),
    v.transform(Number),
    v.minValue(1, `limit is a whole number from 1 to ${API_PAGE.max}.`),
    v.maxValue(API_PAGE.max, `limit is a whole number from 1 to ${API_PAGE.max}.`),
  ),
  String(API_PAGE.default),
)
const Cursor = v.optional(v.pipe(v.string(), v.regex(API_ID_PATTERN, clientApiMessages.badCursor)))
const Service = v.optional(
  v.pipe(
    v.string(),
    v.check((s) => v.is(ServiceIdSchema, s), 'service is not a service of the API.'),
  ),
)

export const FindingsQuerySchema = v.strictObject({
  service: Service,
  status: v.optional(v.picklist(FINDING_STATUSES, 'status is not a finding status.')),
  severity: v.optional(v.picklist(SEVERITIES, 'severity is not a severity.')),
  limit: Limit,
  cursor: Cursor,
})
export type FindingsQuery = v.InferOutput<typeof FindingsQuerySchema>

export const ScansQuerySchema = v.strictObject({ service: Service, limit: Limit, cursor: Cursor })
export type ScansQuery = v.InferOutput<typeof ScansQuerySchema>

const iso = (at: number | null | undefined) => (typeof at === 'number' ? new Date(at).toISOString() : null)

/** A finding as the API answers it in a list. */
export const apiFinding = (f: Finding) => ({
  id: f.id,
  service: f.service,
  title: f.title,
  severity: f.severity,
  status: f.status,
  asset: f.asset,
  location: f.location,
  cvss: f.cvss ?? null,
  cwe: f.cwe,
  tags: f.tags,
  regression: f.regression,
  firstSeenAt: iso(f.firstSeenAt),
  lastSeenAt: iso(f.lastSeenAt),
  publishedAt: iso(f.publishedAt),
  slaState: f.slaState,
  dueAt: iso(f.sla.dueAt),
  closedAt: iso(f.closedAt),
  fixedAt: iso(f.fixedAt),
  retestId: f.retestId ?? null,
  updatedAt: iso(f.updatedAt),
})

export const apiHistoryEntry = (h: FindingHistoryEntry) => ({
  id: h.id,
  action: h.action,
  from: h.from,
  to: h.to,
  at: iso(h.at),
  by: h.byName,
  role: h.role,
  note: h.note ?? null,
})

/** One finding with what its page says of it, and its history oldest first. */
export const apiFindingDetail = (f: Finding, history: readonly FindingHistoryEntry[]) => ({
  ...apiFinding(f),
  description: f.description,
  impact: f.impact,
  remediation: f.remediation,
  references: f.references,
  history: history.map(apiHistoryEntry),
})

export const apiScan = (s: Scan) => ({
  id: s.id,
  service: s.service,
  title: s.title,
  tool: s.tool,
  targets: s.targets,
  side: s.side,
  startedAt: iso(s.startedAt),
  finishedAt: iso(s.finishedAt),
  publishedAt: iso(s.publishedAt),
  counts: s.counts,
})
