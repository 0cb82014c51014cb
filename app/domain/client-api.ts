// The client API a company's tools call with an API token (decision 0050), under /api/v1 on the
// app's origin, answered by the clientApi function:
//   GET /api/v1/findings?service=&status=&severity=&limit=&cursor=  → {data: [finding], nextCursor}
//   GET /api/v1/findings/<id>                                       → finding with its history
//   GET /api/v1/scans?service=&limit=&cursor=                       → {data: [scan], nextCursor}
// and with findings:write, each through the same workflow as the finding's page (a client manager's moves):
//   POST /api/v1/findings/<id>/retest {note}                        → 201 {findingId, status, retestId, dueAt}
//   POST /api/v1/findings/<id>/accept-risk {justification, expiresAt} → 200 {findingId, status, expiresAt}
//   POST /api/v1/findings/<id>/comments {body}                      → 201 {findingId, commentId}
// A write sent with an Idempotency-Key header is made once for the token and key (call receipts,
// decision 0046): a retry answers what the first try did, with Idempotent-Replayed: true.
// Every refusal is {error: {code, message, field?}} with the status of its code; 429 carries Retry-After.
// The OpenAPI document (client-api-openapi.ts) states the same shapes.
import * as v from 'valibot'
import { apiTokenMessages } from './api-tokens.ts'
import { RequestIdSchema } from './call-receipts.ts'
import { COMMENT_MAX_LENGTH } from './finding-comments.ts'
import { FINDING_STATUSES } from './finding-statuses.ts'
import type { FindingHistoryEntry } from './finding-history.ts'
import { acceptanceEndOfDay, FINDING_ACTIONS } from './finding-workflow.ts'
import { formatNumber } from './numbers.ts'
import { FINDING_NOTE_MAX } from './reports-calls.ts'
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
  conflict: 409,
  idempotency_key_reused: 422,
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
  notJson: 'The body is not JSON: send an object with Content-Type: application/json.',
  notObject: 'The body is not a JSON object.',
  unknownField: (field: string) => `${field} is not a field of this call.`,
  idempotencyKey: 'Idempotency-Key: send 16 to 64 letters, digits, dashes or underscores (a UUID, say), the same on every try.',
  keyReused: 'This Idempotency-Key was sent before with another call or body: use a new key for a new request.',
} as const

/** The header whose value makes a write happen once however often it is sent (decision 0046). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'
/** The answer's header saying it is what an earlier try with the same key was answered. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed'

export interface ApiErrorBody {
  /** `field`: the body's field (or the header) a 400 is about. */
  error: { code: ApiErrorCode; message: string; field?: string }
}

export const apiError = (code: ApiErrorCode, message: string, field?: string): { status: number; body: ApiErrorBody } => ({
  status: API_ERROR_CODES[code],
  body: { error: { code, message, ...(field === undefined ? {} : { field }) } },
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

// --- the writes (findings:write)

const text = (field: string, missing: string, max: number) =>
  v.pipe(
    v.string(`${field}: ${missing}.`),
    v.trim(),
    v.minLength(1, `${field}: ${missing}.`),
    v.maxLength(max, `${field}: keep it to ${formatNumber(max)} characters.`),
  )

const DAY = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i
const EXPIRY = 'expiresAt: when the acceptance ends, a day (2027-03-31, its end in UTC) or a date-time with its offset.'

/** When an accepted risk ends: a day, as the page chooses it (its last second, UTC), or an RFC 3339 date-time; epoch ms. */
const AcceptanceEnd = v.pipe(
  v.string(EXPIRY),
  v.check((s) => DAY.test(s) || DATE_TIME.test(s), EXPIRY),
  v.transform((s) => (DAY.test(s) ? acceptanceEndOfDay(s) : Date.parse(s))),
  v.check((at) => Number.isFinite(at), EXPIRY),
)

export const RetestBodySchema = v.strictObject({ note: text('note', 'say what was changed, for the analyst', FINDING_NOTE_MAX) })

export const AcceptRiskBodySchema = v.strictObject({
  justification: text('justification', 'say why the risk can be accepted', FINDING_NOTE_MAX),
  expiresAt: AcceptanceEnd,
})

export const CommentBodySchema = v.strictObject({ body: text('body', 'write the comment', COMMENT_MAX_LENGTH) })

export type ApiParsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string }

/** A write's body as its schema reads it, or the refusal naming the field. */
export function apiBody<S extends v.GenericSchema>(schema: S, raw: string): ApiParsed<v.InferOutput<S>> {
  let json: unknown
  try {
    json = JSON.parse(raw || 'null')
  } catch {
    return { ok: false, message: clientApiMessages.notJson }
  }
  const parsed = v.safeParse(schema, json)
  if (parsed.success) return { ok: true, value: parsed.output }
  const issue = parsed.issues[0]
  const field = v.getDotPath(issue)
  if (field === null) return { ok: false, message: clientApiMessages.notObject }
  if (issue.expected === 'never') return { ok: false, message: clientApiMessages.unknownField(field), field }
  return { ok: false, message: issue.message, field }
}

/** The Idempotency-Key a write was sent with (null: none), or the refusal. */
export function apiIdempotencyKey(header: string | undefined): ApiParsed<string | null> {
  if (header === undefined) return { ok: true, value: null }
  return v.is(RequestIdSchema, header)
    ? { ok: true, value: header }
    : { ok: false, message: clientApiMessages.idempotencyKey, field: IDEMPOTENCY_KEY_HEADER }
}

export const apiRetestAnswer = (findingId: string, retest: { retestId: string; dueAt: number }) => ({
  findingId,
  status: FINDING_ACTIONS.request_retest.to,
  retestId: retest.retestId,
  dueAt: iso(retest.dueAt),
})

export const apiAcceptRiskAnswer = (findingId: string, expiresAt: number) => ({
  findingId,
  status: FINDING_ACTIONS.request_acceptance.to,
  expiresAt: iso(expiresAt),
})

export const apiCommentAnswer = (findingId: string, commentId: string) => ({ findingId, commentId })
