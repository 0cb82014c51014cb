// clientApi: the client API a company's tools call with an API token (app/domain/client-api.ts,
// decision 0050). Every call counts against limits per token and per caller IP before the token
// is read; a genuine token's every call is an audit event of its company. The token's company is
// the only company it reads, and what it may read of it is asked of app/domain/access.ts as the
// pages ask. Lists are Firestore queries with a limit and a cursor, never a whole collection.
// The Worker forwards /api/v1/* (but the DAST API's /api/v1/dast/*) here.
import '../options.ts'
import type { DocumentReference, Firestore, Query } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { onRequest } from 'firebase-functions/v2/https'
import * as v from 'valibot'
import { tokenMayReadResults, type ApiScope } from '#domain/access.ts'
import { apiTokenFormat, type ApiToken } from '#domain/api-tokens.ts'
import {
  API_HISTORY_LIMIT,
  API_ID_PATTERN,
  apiError,
  apiFinding,
  apiFindingDetail,
  apiScan,
  CLIENT_API_LIMITS,
  clientApiMessages,
  FindingsQuerySchema,
  ScansQuerySchema,
} from '#domain/client-api.ts'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { findingHistoryPath, historyFromDocument } from '#domain/finding-history.ts'
import { findingFromDocument, findingPath, findingsPath } from '#domain/findings.ts'
import { scanFromDocument, scanPath, scansPath } from '#domain/scans.ts'
import { services, type ServiceId } from '#domain/services.ts'
import { adminDb } from '../admin.ts'
import { tokenHashSecret } from '../admin/secret-tokens.ts'
import { clientIpBehindWorker, trustedHops } from '../client-ip.ts'
import { answerWithinDatabaseReach, OUT_OF_REACH_ANSWER, sdkOutOfReach } from '../database-reach.ts'
import { consumeRateLimits } from '../rate-limit.ts'
import type { ApiResponse } from '../agents/agent-api.ts'
import { recordApiTokenUse, verifyApiToken, type ApiTokenRefusal } from './api-tokens.ts'

export interface ClientApiRequest {
  method: string
  /** The path under /api/v1, without the query. */
  path: string
  /** The query string, without its `?`. */
  query: string
  authorization?: string
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

const ROUTES: {
  method: string
  path: RegExp
  scope: ApiScope
  answer: (reader: Reader, match: RegExpExecArray, query: string) => Promise<ApiResponse>
}[] = [
  { method: 'GET', path: /^\/findings\/?$/, scope: 'findings:read', answer: (reader, _match, query) => listFindings(reader, query) },
  {
    method: 'GET',
    path: new RegExp(`^/findings/(${API_ID_PATTERN.source.slice(1, -1)})$`),
    scope: 'findings:read',
    answer: (reader, match) => readFinding(reader, match[1]!),
  },
  { method: 'GET', path: /^\/scans\/?$/, scope: 'findings:read', answer: (reader, _match, query) => listScans(reader, query) },
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
  const route = ROUTES.map((r) => ({ route: r, match: r.path.exec(request.path) })).find((r) => r.match)
  if (!route) return { answer: apiError('not_found', clientApiMessages.noRoute), token }
  if (route.route.method !== request.method) return { answer: apiError('method_not_allowed', clientApiMessages.noRoute), token }
  if (!token.scopes.includes(route.route.scope))
    return { answer: apiError('missing_scope', clientApiMessages.missingScope(route.route.scope)), token }
  const company = companyFromDocument(token.company, (await db.doc(companyPath(token.company)).get()).data())
  return { answer: await route.route.answer({ db, token, company }, route.match!, request.query), token }
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
      ip: clientIpBehindWorker(req.get('x-forwarded-for'), req.ip, trustedHops()) ?? null,
    }),
  )
  const sent = answer === OUT_OF_REACH_ANSWER ? UNAVAILABLE : answer
  if ('headers' in sent && sent.headers) res.set(sent.headers)
  res.status(sent.status).json(sent.body)
})
