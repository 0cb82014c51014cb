// clientApi: the client API a company's tools call with an API token (app/domain/client-api.ts,
// decision 0050). Every call counts against limits per token and per caller IP before the token
// is read; a genuine token's every call is an audit event of its company. The token's company is
// the only company it reads, and what it may read of it is asked of app/domain/access.ts as the
// pages ask. Lists are Firestore queries with a limit and a cursor, never a whole collection.
// The writes (findings:write) are the report callables' own work (retestRequest, findingMoves,
// postFindingComment) with the token as a client manager of its company, made once per
// Idempotency-Key through the callables' receipts (decision 0046).
// The Worker forwards /api/v1/* (but the DAST API's /api/v1/dast/*) here.
import '../options.ts'
import type { DocumentReference, Firestore, Query } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError, onRequest, type FunctionsErrorCode } from 'firebase-functions/v2/https'
import * as v from 'valibot'
import { tokenMayChangeFindings, tokenMayReadResults, type ApiScope } from '#domain/access.ts'
import { apiTokenFormat, type ApiToken } from '#domain/api-tokens.ts'
import type { CallableName } from '#domain/callables.ts'
import {
  AcceptRiskBodySchema,
  API_HISTORY_LIMIT,
  API_ID_PATTERN,
  apiAcceptRiskAnswer,
  apiBody,
  apiCommentAnswer,
  apiError,
  apiFinding,
  apiFindingDetail,
  apiIdempotencyKey,
  apiRetestAnswer,
  apiScan,
  CLIENT_API_LIMITS,
  clientApiMessages,
  CommentBodySchema,
  FindingsQuerySchema,
  IDEMPOTENT_REPLAYED_HEADER,
  RetestBodySchema,
  ScansQuerySchema,
  type ApiErrorCode,
} from '#domain/client-api.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { findingHistoryPath, historyFromDocument } from '#domain/finding-history.ts'
import { acceptanceEndProblem } from '#domain/finding-workflow.ts'
import { findingFromDocument, findingPath, findingsPath } from '#domain/findings.ts'
import { scanFromDocument, scanPath, scansPath } from '#domain/scans.ts'
import { services, type ServiceId } from '#domain/services.ts'
import { adminDb } from '../admin.ts'
import { tokenHashSecret } from '../admin/secret-tokens.ts'
import { once, type Transact } from '../call-receipts.ts'
import { clientIpBehindWorker, trustedHops } from '../client-ip.ts'
import { answerWithinDatabaseReach, OUT_OF_REACH_ANSWER, sdkOutOfReach } from '../database-reach.ts'
import { consumeRateLimits } from '../rate-limit.ts'
import type { ApiResponse } from '../agents/agent-api.ts'
import { postFindingComment } from '../reports/add-finding-comment.ts'
import { findingMoves } from '../reports/change-finding-status.ts'
import { tokenReportCaller, type ReportCaller } from '../reports/report-caller.ts'
import { retestRequest } from '../reports/request-retest.ts'
import { recordApiTokenUse, verifyApiToken, type ApiTokenRefusal } from './api-tokens.ts'

export interface ClientApiRequest {
  method: string
  /** The path under /api/v1, without the query. */
  path: string
  /** The query string, without its `?`. */
  query: string
  authorization?: string
  /** The body as sent (writes: JSON). */
  body?: string
  /** The Idempotency-Key header, as sent. */
  idempotencyKey?: string
  ip?: string | null
}

const REFUSALS: Record<ApiTokenRefusal, ApiResponse> = {
  malformed: apiError('unauthenticated', clientApiMessages.unknownToken),
  unknown: apiError('unauthenticated', clientApiMessages.unknownToken),
  expired: apiError('token_expired', clientApiMessages.expired),
  revoked: apiError('token_revoked', clientApiMessages.revoked),
  'not-set-up': apiError('unavailable', clientApiMessages.notSetUp),
}

/** A query's parameters as one object; a parameter given twice is refused by its schema (an array). */
function parameters(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of new URLSearchParams(query)) {
    const seen = out[key]
    out[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value]
  }
  return out
}

interface Reader {
  db: Firestore
  token: ApiToken
  company: Company | null
}

/** A refusal on the way, told apart from a value by its own wrapper (a query has a `status` of its own). */
class Refused {
  readonly answer: ApiResponse
  constructor(answer: ApiResponse) {
    this.answer = answer
  }
}

const readable = (reader: Reader, service: string) => tokenMayReadResults(reader.token.scopes, reader.company, service)

/** The services the token may read, the one asked for or all; a refusal when it names one closed to it. */
function servicesFor(reader: Reader, asked: string | undefined): ServiceId[] | Refused {
  if (asked !== undefined)
    return readable(reader, asked) ? [asked as ServiceId] : new Refused(apiError('forbidden', clientApiMessages.serviceClosed))
  return services.map((s) => s.id).filter((id) => readable(reader, id))
}

/** One page of a query: `limit` documents after the cursor's, and the cursor of the next page (null: the last). */
async function page<T>(
  query: Query,
  cursor: DocumentReference | null,
  limit: number,
  read: (id: string, data: unknown) => T | null,
): Promise<{ data: T[]; nextCursor: string | null } | Refused> {
  let from = query
  if (cursor) {
    const after = await cursor.get()
    if (!after.exists) return new Refused(apiError('invalid_request', clientApiMessages.badCursor))
    from = from.startAfter(after)
  }
  const snapshot = await from.limit(limit + 1).get()
  const docs = snapshot.docs.slice(0, limit)
  return {
    data: docs.flatMap((d) => read(d.id, d.data()) ?? []),
    nextCursor: snapshot.docs.length > limit ? (docs.at(-1)?.id ?? null) : null,
  }
}

function queryOf<S extends v.GenericSchema>(schema: S, query: string): v.InferOutput<S> | Refused {
  const parsed = v.safeParse(schema, parameters(query))
  return parsed.success ? parsed.output : new Refused(apiError('invalid_request', parsed.issues[0].message))
}

/**
 * One page of a list: the query's parameters checked, the services open to the token, then the
 * query `plan` builds for them, after the cursor `plan` names; each item as `shape` answers it.
 */
async function listing<S extends typeof FindingsQuerySchema | typeof ScansQuerySchema, T>(
  reader: Reader,
  schema: S,
  query: string,
  plan: (asked: v.InferOutput<S>, open: ServiceId[]) => { query: Query; cursor: (id: string) => string },
  read: (id: string, data: unknown) => T | null,
  shape: (item: T) => unknown,
): Promise<ApiResponse> {
  const asked = queryOf(schema, query)
  if (asked instanceof Refused) return asked.answer
  const open = servicesFor(reader, asked.service)
  if (open instanceof Refused) return open.answer
  if (open.length === 0) return { status: 200, body: { data: [], nextCursor: null } }
  const planned = plan(asked, open)
  const cursor = asked.cursor ? reader.db.doc(planned.cursor(asked.cursor)) : null
  const answer = await page(planned.query, cursor, asked.limit, read)
  if (answer instanceof Refused) return answer.answer
  return { status: 200, body: { data: answer.data.map(shape), nextCursor: answer.nextCursor } }
}

/** GET /findings: newest seen first, filtered by service, status and severity. */
function listFindings(reader: Reader, query: string): Promise<ApiResponse> {
  const company = reader.token.company
  const plan = (asked: v.InferOutput<typeof FindingsQuerySchema>, open: ServiceId[]) => {
    let findings = reader.db.collection(findingsPath(company)).where('service', 'in', open)
    if (asked.status) findings = findings.where('status', '==', asked.status)
    if (asked.severity) findings = findings.where('severity', '==', asked.severity)
    return { query: findings.orderBy('lastSeenAt', 'desc'), cursor: (id: string) => findingPath(company, id) }
  }
  return listing(reader, FindingsQuerySchema, query, plan, findingFromDocument, apiFinding)
}

/** GET /findings/<id>: the finding with its history, oldest first. */
async function readFinding(reader: Reader, id: string): Promise<ApiResponse> {
  const company = reader.token.company
  const snapshot = await reader.db.doc(findingPath(company, id)).get()
  const finding = snapshot.exists ? findingFromDocument(id, snapshot.data()) : null
  // Another company's finding, or one of a service closed to the token, is not there for it.
  if (!finding || !readable(reader, finding.service)) return apiError('not_found', clientApiMessages.noFinding)
  const history = await reader.db.collection(findingHistoryPath(company, id)).orderBy('at').limit(API_HISTORY_LIMIT).get()
  const entries = history.docs.flatMap((d) => historyFromDocument(d.id, d.data()) ?? [])
  return { status: 200, body: apiFindingDetail(finding, entries) }
}

/** GET /scans: the published scans, newest first, filtered by service. */
function listScans(reader: Reader, query: string): Promise<ApiResponse> {
  const company = reader.token.company
  const plan = (_asked: unknown, open: ServiceId[]) => ({
    query: reader.db
      .collection(scansPath(company))
      .where('service', 'in', open)
      .where('state', '==', 'published')
      .orderBy('publishedAt', 'desc'),
    cursor: (id: string) => scanPath(company, id),
  })
  return listing(reader, ScansQuerySchema, query, plan, scanFromDocument, apiScan)
}

/** What a route answers from: the token's reader, the path's match, and the request's query, body and key. */
interface Call {
  reader: Reader
  match: RegExpExecArray
  query: string
  body: string
  idempotencyKey: string | undefined
  now: number
}

/** The report writes' refusals (HttpsError codes) as the API's codes. */
const WRITE_REFUSALS: Partial<Record<FunctionsErrorCode, ApiErrorCode>> = {
  'invalid-argument': 'invalid_request',
  'not-found': 'not_found',
  'permission-denied': 'forbidden',
  'failed-precondition': 'conflict',
  'already-exists': 'idempotency_key_reused',
}

/**
 * A write on the finding the path names: its key and body checked, the finding one the token may
 * change (404 otherwise, as for a read), then `write` as the token's caller, in a transaction made
 * at most once for the token, the callable and the Idempotency-Key when one was sent. A retry
 * answers the first try's answer with Idempotent-Replayed: true and writes nothing.
 */
async function writeFinding<S extends v.GenericSchema>(
  call: Call,
  schema: S,
  callable: CallableName,
  write: (caller: ReportCaller, asked: v.InferOutput<S>, transact: Transact) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const { reader } = call
  const findingId = call.match[1]!
  const key = apiIdempotencyKey(call.idempotencyKey)
  if (!key.ok) return apiError('invalid_request', key.message, key.field)
  const asked = apiBody(schema, call.body)
  if (!asked.ok) return apiError('invalid_request', asked.message, asked.field)
  const snapshot = await reader.db.doc(findingPath(reader.token.company, findingId)).get()
  const finding = snapshot.exists ? findingFromDocument(findingId, snapshot.data()) : null
  if (!finding || !reader.company || !tokenMayChangeFindings(reader.token.scopes, reader.company, finding.service))
    return apiError('not_found', clientApiMessages.noFinding)
  const caller = tokenReportCaller(reader.token, reader.company)
  const requestId = key.value
  // What a receipt holds the request as: the same key may only repeat the same finding and body.
  const request = { requestId: requestId ?? '', findingId, ...(asked.value as object) }
  let replayed = false
  const transact: Transact =
    requestId === null
      ? (work) => reader.db.runTransaction(work)
      : async (work) => {
          const done = await once(reader.db, caller.uid, callable, request, work, call.now)
          replayed = done.replayed
          return done.answer
        }
  try {
    const answer = await write(caller, asked.value, transact)
    return replayed ? { ...answer, headers: { ...answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' } } : answer
  } catch (error) {
    const code = error instanceof HttpsError ? WRITE_REFUSALS[error.code] : undefined
    if (!code || !(error instanceof HttpsError)) throw error
    const field = (error.details as { field?: string } | undefined)?.field
    return apiError(code, code === 'idempotency_key_reused' ? clientApiMessages.keyReused : error.message, field)
  }
}

/** POST /findings/<id>/retest: a retest request of the finding, as the page's "Request retest". */
const requestFindingRetest = (call: Call) =>
  writeFinding(call, RetestBodySchema, 'requestRetest', async (caller, asked, transact) => {
    const findingId = call.match[1]!
    const retest = await retestRequest(call.reader.db, caller, { findingIds: [findingId], note: asked.note }, transact)
    return { status: 201, body: apiRetestAnswer(findingId, retest) }
  })

/**
 * POST /findings/<id>/accept-risk: the page's "Ask to accept the risk" (a client manager's move;
 * a company admin decides on the page), with its justification and end. The end is checked at the
 * first try only: a retry answers what that try did.
 */
const acceptFindingRisk = (call: Call) =>
  writeFinding(call, AcceptRiskBodySchema, 'changeFindingStatus', async (caller, asked, transact) => {
    const findingId = call.match[1]!
    const checked: Transact = (work) =>
      transact(async (tx) => {
        const problem = acceptanceEndProblem(asked.expiresAt, Date.now())
        if (problem) throw new HttpsError('invalid-argument', `expiresAt: ${problem}`, { field: 'expiresAt' })
        return work(tx)
      })
    const asks = { findingIds: [findingId], action: 'request_acceptance', note: asked.justification, expiresAt: asked.expiresAt } as const
    await findingMoves(call.reader.db, caller, asks, checked, { allOrNone: true })
    return { status: 200, body: apiAcceptRiskAnswer(findingId, asked.expiresAt) }
  })

/** POST /findings/<id>/comments: a comment the client reads, mentions told as on the page. */
const commentOnFinding = (call: Call) =>
  writeFinding(call, CommentBodySchema, 'addFindingComment', async (caller, asked, transact) => {
    const findingId = call.match[1]!
    const posted = await postFindingComment(
      call.reader.db,
      caller,
      { findingId, body: asked.body, visibility: 'client', mentions: [] },
      transact,
    )
    return { status: 201, body: apiCommentAnswer(findingId, posted.commentId) }
  })

const ID = API_ID_PATTERN.source.slice(1, -1)

const ROUTES: { method: string; path: RegExp; scope: ApiScope; answer: (call: Call) => Promise<ApiResponse> }[] = [
  { method: 'GET', path: /^\/findings\/?$/, scope: 'findings:read', answer: (call) => listFindings(call.reader, call.query) },
  {
    method: 'GET',
    path: new RegExp(`^/findings/(${ID})$`),
    scope: 'findings:read',
    answer: (call) => readFinding(call.reader, call.match[1]!),
  },
  { method: 'GET', path: /^\/scans\/?$/, scope: 'findings:read', answer: (call) => listScans(call.reader, call.query) },
  { method: 'POST', path: new RegExp(`^/findings/(${ID})/retest$`), scope: 'findings:write', answer: requestFindingRetest },
  { method: 'POST', path: new RegExp(`^/findings/(${ID})/accept-risk$`), scope: 'findings:write', answer: acceptFindingRisk },
  { method: 'POST', path: new RegExp(`^/findings/(${ID})/comments$`), scope: 'findings:write', answer: commentOnFinding },
]

/** The answer to one call, before its audit. */
async function answer(
  db: Firestore,
  request: ClientApiRequest,
  now: number,
  secret: string | null | undefined,
): Promise<{ answer: ApiResponse; token?: ApiToken }> {
  const presented = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1]
  if (!presented) return { answer: apiError('unauthenticated', clientApiMessages.noToken) }
  // A mistyped token costs nothing; a well-formed one counts against its limits before it is read.
  const tokenId = apiTokenFormat.parse(presented)?.id
  if (!tokenId) return { answer: apiError('unauthenticated', clientApiMessages.unknownToken) }
  const limits = [
    { kind: 'client-api-token', key: tokenId, limit: CLIENT_API_LIMITS.perToken, windowMs: CLIENT_API_LIMITS.windowMs },
    ...(request.ip
      ? [{ kind: 'client-api-ip', key: request.ip, limit: CLIENT_API_LIMITS.perIp, windowMs: CLIENT_API_LIMITS.windowMs }]
      : []),
  ]
  if (!(await consumeRateLimits(db, limits, now))) {
    const refused = apiError('rate_limited', clientApiMessages.tooManyRequests)
    return { answer: { ...refused, headers: { 'Retry-After': String(CLIENT_API_LIMITS.windowMs / 1000) } } }
  }
  const verified = await verifyApiToken(db, presented, { now, ...(secret === undefined ? {} : { secret }) })
  if (!verified.ok) return { answer: REFUSALS[verified.reason], token: verified.token }
  const token = verified.token
  const paths = ROUTES.flatMap((route) => {
    const match = route.path.exec(request.path)
    return match ? [{ route, match }] : []
  })
  if (paths.length === 0) return { answer: apiError('not_found', clientApiMessages.noRoute), token }
  const found = paths.find((p) => p.route.method === request.method)
  if (!found) return { answer: apiError('method_not_allowed', clientApiMessages.noRoute), token }
  const { route, match } = found
  if (!token.scopes.includes(route.scope)) return { answer: apiError('missing_scope', clientApiMessages.missingScope(route.scope)), token }
  const company = companyFromDocument(token.company, (await db.doc(companyPath(token.company)).get()).data())
  const call: Call = {
    reader: { db, token, company },
    match,
    query: request.query,
    body: request.body ?? '',
    idempotencyKey: request.idempotencyKey,
    now,
  }
  return { answer: await route.answer(call), token }
}

export async function handleClientApiRequest(
  db: Firestore,
  request: ClientApiRequest,
  now = Date.now(),
  secret?: string | null,
): Promise<ApiResponse> {
  let outcome: Awaited<ReturnType<typeof answer>>
  try {
    outcome = await answer(db, request, now, secret)
  } catch (error) {
    // Answered by answerWithinDatabaseReach, as every call is while the database is away.
    if (sdkOutOfReach(error)) throw error
    logger.error('clientApi: failed', { path: request.path, error: String(error) })
    return apiError('server_error', clientApiMessages.failed)
  }
  if (outcome.token) {
    const path = request.query ? `${request.path}?${request.query}` : request.path
    await recordApiTokenUse(db, outcome.token, { method: request.method, path, status: outcome.answer.status, ip: request.ip ?? null }, now)
  }
  return outcome.answer
}

const UNAVAILABLE = apiError('unavailable', OUT_OF_REACH_ANSWER.body.error)

export const clientApi = onRequest({ cors: false, secrets: [tokenHashSecret] }, async (req, res) => {
  const answer = await answerWithinDatabaseReach(() =>
    handleClientApiRequest(adminDb(), {
      method: req.method,
      path: req.path,
      query: req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
      authorization: req.get('authorization'),
      body: req.rawBody ? req.rawBody.toString('utf8') : '',
      idempotencyKey: req.get('idempotency-key'),
      ip: clientIpBehindWorker(req.get('x-forwarded-for'), req.ip, trustedHops()) ?? null,
    }),
  )
  const sent = answer === OUT_OF_REACH_ANSWER ? UNAVAILABLE : answer
  if ('headers' in sent && sent.headers) res.set(sent.headers)
  res.status(sent.status).json(sent.body)
})
