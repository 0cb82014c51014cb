// dastApi: the DAST API for clients' CI pipelines (app/domain/dast-api.ts, decision 0021). A DAST
// key (verifyDastKey) triggers a wapiti scan of one of its allowed targets, an API token with
// dast:trigger (decision 0050) one within the company's scan scope, at a location that serves the
// key's company and has an agent online (decision 0034); the status call answers with
// the draft's findings by severity and those new to the company, so a pipeline can fail on new
// high findings. Every call counts against limits per caller IP and per key before any key is
// read. The Worker forwards /api/v1/dast/* here.
import '../options.ts'
import type { Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { onRequest } from 'firebase-functions/v2/https'
import * as v from 'valibot'
import { agentFromDocument, agentHealth, AGENTS_COLLECTION, locationFromDocument, locationPath, locationServes } from '#domain/agents.ts'
import { DAST_SCANS_AT_ONCE, dastApiMessages, DastScanRequestSchema, type DastScanStatus } from '#domain/dast-api.ts'
import { apiTokenActorUid, apiTokenFormat, apiTokenMessages, type ApiToken } from '#domain/api-tokens.ts'
import { dastKeySlotPath, parseDastKeyToken } from '#domain/dast-keys.ts'
import { findingPath } from '#domain/findings.ts'
import { draftFindingFromDocument, draftFindingsPath } from '#domain/scan-drafts.ts'
import { FINISHED_STATES, scanJobFromDocument, scanJobPath, type ScanJob } from '#domain/scan-jobs.ts'
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { adminDb } from '../admin.ts'
import { dastKeySecret, verifyDastKey, type DastKeyRefusal } from '../admin/dast-keys.ts'
import { clientIpBehindWorker, trustedHops } from '../client-ip.ts'
import { answerWithinDatabaseReach, sdkOutOfReach } from '../database-reach.ts'
import { consumeRateLimits } from '../rate-limit.ts'
import { recordApiTokenUse, verifyApiTokenForDast, type DastTriggerRefusal } from '../api/api-tokens.ts'
import { apiRequestOf, type ApiRequest, type ApiResponse } from './agent-api.ts'
import { preparedJob } from './fleet-callables.ts'

const REFUSALS: Record<CallerRefusal, [number, string]> = {
  scope: [403, dastApiMessages.noScope],
  malformed: [401, dastApiMessages.unknownKey],
  unknown: [401, dastApiMessages.unknownKey],
  expired: [401, dastApiMessages.expired],
  revoked: [401, dastApiMessages.revoked],
  'not-triggering': [403, dastApiMessages.notTriggering],
  target: [403, dastApiMessages.target],
  'not-set-up': [503, dastApiMessages.notSetUp],
}

const refuse = (status: number, error: string): ApiResponse => ({ status, body: { error } })
const zero = () => Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>

/** Calls a minute: per caller IP, and per key id (taken from the token's form before the key is read). */
export const DAST_API_LIMITS = { perIp: 120, perKey: 120, windowMs: 60_000 } as const

/**
 * A location that serves `company` and has an agent online now that runs wapiti: the one named
 * (only if it serves the company), else the first found.
 */
async function locationFor(db: Firestore, company: string, named: string | undefined, now: number): Promise<string | null> {
  const agents = (await db.collection(AGENTS_COLLECTION).get()).docs
    .map((d) => agentFromDocument(d.id, d.data()))
    .filter(
      (a) => a && agentHealth(a, now) !== 'offline' && agentHealth(a, now) !== 'disabled' && a.scanners.some((s) => s.name === 'wapiti'),
    )
  const candidates = [...new Set(agents.map((a) => a!.locationId))].filter((id) => !named || id === named).sort()
  if (candidates.length === 0) return null
  const locations = await db.getAll(...candidates.map((id) => db.doc(locationPath(id))))
  const serving = locations.find((snapshot) => {
    const location = snapshot.exists ? locationFromDocument(snapshot.id, snapshot.data()) : null
    return location !== null && locationServes(location, company)
  })
  return serving?.id ?? null
}

class NoSlot extends Error {}

/**
 * Queues the key's job in a free slot, atomically: the slots (and the jobs they hold) are read in
 * the transaction that writes the job, so two calls at once cannot both pass the limit.
 */
async function queueInSlot(db: Firestore, keyId: string, job: Awaited<ReturnType<typeof preparedJob>>): Promise<string> {
  const slots = Array.from({ length: DAST_SCANS_AT_ONCE }, (_, n) => db.doc(dastKeySlotPath(keyId, n)))
  await db.runTransaction(async (tx) => {
    const held = await tx.getAll(...slots)
    const jobIds = held.map((slot) => slot.get('jobId')).map((id) => (typeof id === 'string' ? id : null))
    const jobs = await Promise.all(jobIds.map((id) => (id ? tx.get(db.doc(scanJobPath(id))) : null)))
    const free = jobs.findIndex((snapshot) => {
      const held = snapshot?.exists ? scanJobFromDocument(snapshot.id, snapshot.data()) : null
      return !held || FINISHED_STATES.includes(held.state)
    })
    if (free < 0) throw new NoSlot()
    tx.create(job.ref, job.data)
    tx.set(slots[free]!, { jobId: job.ref.id })
  })
  return job.ref.id
}

async function status(db: Firestore, job: ScanJob): Promise<DastScanStatus> {
  const state = job.state === 'leased' ? 'running' : job.state
  const answer: DastScanStatus = {
    id: job.id,
    status: state,
    target: job.targets[0] ?? '',
    createdAt: new Date(job.createdAt).toISOString(),
    finishedAt: job.finishedAt ? new Date(job.finishedAt).toISOString() : null,
    error: job.error,
  }
  if (job.state !== 'succeeded' || !job.scanId) return answer
  const drafts = (await db.collection(draftFindingsPath(job.company, job.scanId)).get()).docs
    .map((d) => draftFindingFromDocument(d.id, d.data()))
    .filter((f) => f !== null && !f.falsePositive && !f.mergedInto)
  const known = drafts.length ? await db.getAll(...drafts.map((f) => db.doc(findingPath(job.company, f!.id)))) : []
  const bySeverity = zero()
  const newBySeverity = zero()
  const newFindings: NonNullable<DastScanStatus['newFindings']> = []
  drafts.forEach((f, n) => {
    bySeverity[f!.severity]++
    // Known before this scan: a published scan (at once, or by an analyst) made its new findings, which stay new to it.
    if (known[n]?.exists && known[n].get('firstSeenScanId') !== job.scanId) return
    newBySeverity[f!.severity]++
    const where = f!.location
    const place = [where.method, where.url ?? where.host, where.parameter && `(${where.parameter})`].filter(Boolean).join(' ')
    newFindings.push({ title: f!.title, severity: f!.severity, location: place })
  })
  return { ...answer, summary: { total: drafts.length, bySeverity, new: newFindings.length, newBySeverity }, newFindings }
}

/** Who triggers: a DAST key, or an API token with `dast:trigger` (its scans wait for review). */
interface DastCaller {
  id: string
  company: string
  publishAtOnce: boolean
  createdBy: string
}

type CallerRefusal = DastKeyRefusal | DastTriggerRefusal

async function verifyCaller(
  db: Firestore,
  token: string,
  options: { ip: string | null; target?: string; now: number; secret?: string | null },
  used: { token?: ApiToken },
): Promise<{ ok: true; caller: DastCaller } | { ok: false; reason: CallerRefusal }> {
  if (apiTokenFormat.parse(token)) {
    const verified = await verifyApiTokenForDast(db, token, options)
    if (verified.token) used.token = verified.token
    if (!verified.ok) return verified
    const { id, company } = verified.token
    return { ok: true, caller: { id, company, publishAtOnce: false, createdBy: apiTokenActorUid(id) } }
  }
  const verified = await verifyDastKey(db, token, options)
  if (!verified.ok) return verified
  const { id, company, publishAtOnce } = verified.key
  return { ok: true, caller: { id, company, publishAtOnce, createdBy: `dast-key:${id}` } }
}

const refusal = (reason: CallerRefusal, used: { token?: ApiToken }): ApiResponse => {
  if (used.token && reason === 'expired') return refuse(401, apiTokenMessages.expired)
  if (used.token && reason === 'revoked') return refuse(401, apiTokenMessages.revoked)
  return refuse(...REFUSALS[reason])
}

/** The DAST API's answer; an API token's every call is audited with it, as the client API's are. */
export async function handleDastRequest(
  db: Firestore,
  request: ApiRequest & { ip?: string | null },
  now = Date.now(),
  secret?: string | null,
): Promise<ApiResponse> {
  const used: { token?: ApiToken } = {}
  const answer = await answerDastRequest(db, request, now, secret, used)
  if (used.token) {
    const use = { method: request.method, path: `/dast${request.path}`, status: answer.status, ip: request.ip ?? null }
    await recordApiTokenUse(db, used.token, use, now)
  }
  return answer
}

async function answerDastRequest(
  db: Firestore,
  request: ApiRequest & { ip?: string | null },
  now: number,
  secret: string | null | undefined,
  used: { token?: ApiToken },
): Promise<ApiResponse> {
  try {
    const token = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1]
    if (!token) return refuse(401, dastApiMessages.noKey)
    // A mistyped key costs nothing; a well-formed one counts against its limits before it is read.
    const keyId = parseDastKeyToken(token)?.id ?? apiTokenFormat.parse(token)?.id
    if (!keyId) return refuse(401, dastApiMessages.unknownKey)
    const limits = [
      { kind: 'dast-api-key', key: keyId, limit: DAST_API_LIMITS.perKey, windowMs: DAST_API_LIMITS.windowMs },
      ...(request.ip ? [{ kind: 'dast-api-ip', key: request.ip, limit: DAST_API_LIMITS.perIp, windowMs: DAST_API_LIMITS.windowMs }] : []),
    ]
    if (!(await consumeRateLimits(db, limits, now)))
      return { ...refuse(429, dastApiMessages.tooManyRequests), headers: { 'Retry-After': String(DAST_API_LIMITS.windowMs / 1000) } }
    if (request.method === 'POST' && request.path === '/scans') {
      let body: unknown
      try {
        body = JSON.parse(request.body || 'null')
      } catch {
        return refuse(400, 'The body is not JSON.')
      }
      const parsed = v.safeParse(DastScanRequestSchema, body)
      if (!parsed.success) return refuse(400, parsed.issues[0].message)
      const verified = await verifyCaller(
        db,
        token,
        { ip: request.ip ?? null, target: parsed.output.target, now, ...(secret === undefined ? {} : { secret }) },
        used,
      )
      if (!verified.ok) return refusal(verified.reason, used)
      const caller = verified.caller
      const locationId = await locationFor(db, caller.company, parsed.output.location, now)
      if (!locationId) return refuse(409, dastApiMessages.noAgent)
      const job = await preparedJob(
        db,
        {
          company: caller.company,
          profile: 'web-dast',
          locationId,
          targets: [parsed.output.target],
          createdBy: caller.createdBy,
          source: 'dast-api',
          dastKeyId: caller.id,
          publishAtOnce: caller.publishAtOnce,
        },
        now,
      )
      let id: string
      try {
        id = await queueInSlot(db, caller.id, job)
      } catch (error) {
        if (error instanceof NoSlot) return refuse(429, dastApiMessages.rateLimited)
        throw error
      }
      return { status: 202, body: { id, status: 'queued', statusUrl: `/api/v1/dast/scans/${id}` } }
    }
    const scanPath = /^\/scans\/([A-Za-z0-9_-]{1,64})$/.exec(request.path)
    if (request.method === 'GET' && scanPath) {
      const verified = await verifyCaller(db, token, { ip: request.ip ?? null, now, ...(secret === undefined ? {} : { secret }) }, used)
      if (!verified.ok) return refusal(verified.reason, used)
      const snapshot = await db.doc(scanJobPath(scanPath[1]!)).get()
      const job = snapshot.exists ? scanJobFromDocument(snapshot.id, snapshot.data()) : null
      if (!job || job.company !== verified.caller.company || job.source !== 'dast-api') return refuse(404, dastApiMessages.noScan)
      return { status: 200, body: await status(db, job) }
    }
    return refuse(404, 'There is no such call: POST /scans or GET /scans/<id>.')
  } catch (error) {
    // Answered by answerWithinDatabaseReach, as every call is while the database is away.
    if (sdkOutOfReach(error)) throw error
    const code = (error as { code?: string }).code
    if (code === 'failed-precondition') return refuse(403, dastApiMessages.target)
    if (code === 'invalid-argument') return refuse(400, dastApiMessages.ambiguousTarget)
    logger.error('dastApi: failed', { path: request.path, error: String(error) })
    return refuse(500, 'The server failed; try again.')
  }
}

export const dastApi = onRequest({ cors: false, secrets: [dastKeySecret] }, async (req, res) => {
  const answer = await answerWithinDatabaseReach(() =>
    handleDastRequest(adminDb(), {
      ...apiRequestOf(req),
      ip: clientIpBehindWorker(req.get('x-forwarded-for'), req.ip, trustedHops()) ?? null,
    }),
  )
  if ('headers' in answer && answer.headers) res.set(answer.headers)
  res.status(answer.status).json(answer.body)
})
