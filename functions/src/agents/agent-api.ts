// agentApi: the HTTP API agents call (decision 0021), a Cloud Function so that it shares the Admin
// SDK's transactions and the import pipeline with the callables. The Worker forwards
// /api/agents/* here, so agents talk to the app's own origin. `handleAgentRequest` is plain input
// and output, which the emulator tests call directly with their own clock.
import '../options.ts'
import type { Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { onRequest, type Request } from 'firebase-functions/v2/https'
import { AGENT_API_PATHS } from '#domain/agent-api.ts'
import { HEARTBEAT_INTERVAL_MS } from '#domain/agents.ts'
import { MAX_OUTPUT_BYTES } from '#domain/scan-jobs.ts'
import { adminDb } from '../admin.ts'
import { answerWithinDatabaseReach, sdkOutOfReach } from '../database-reach.ts'
import { recordResult } from './agent-result.ts'
import { passwordReuseKey, passwordReuseSecret } from '../scans/get-password-reuse-key.ts'
import { declaredSecrets } from '../search-config.ts'
import { authenticateAgent, enrolAgent, FleetError, leasedJobSpec, leaseNextJob, recordHeartbeat, recordProgress } from './fleet-store.ts'

export interface ApiRequest {
  method: string
  /** The path under the API's root, query included: `/heartbeat`, `/jobs/<id>/result`. */
  path: string
  authorization?: string
  body: string
}

/** What the API handlers read of an HTTP request. */
export const apiRequestOf = (req: Request): ApiRequest => ({
  method: req.method,
  path: req.path,
  authorization: req.get('authorization'),
  body: req.rawBody ? req.rawBody.toString('utf8') : '',
})

export interface ApiResponse {
  status: number
  body: unknown
  headers?: Record<string, string>
}

/** The body as JSON, refusing what is not. */
function json(body: string): unknown {
  try {
    return JSON.parse(body || 'null')
  } catch {
    throw new FleetError(400, 'The body is not JSON.')
  }
}

export async function handleAgentRequest(db: Firestore, request: ApiRequest, now = Date.now()): Promise<ApiResponse> {
  try {
    if (request.method !== 'POST') throw new FleetError(405, 'Use POST.')
    if (request.body.length > MAX_OUTPUT_BYTES + 64 * 1024) throw new FleetError(413, 'The body is larger than the API allows.')
    if (request.path === AGENT_API_PATHS.enrol) {
      const enrolled = await enrolAgent(db, json(request.body), now)
      return { status: 201, body: { ...enrolled, heartbeatMs: HEARTBEAT_INTERVAL_MS } }
    }
    const agent = await authenticateAgent(
      db,
      request.authorization,
      { method: request.method, path: request.path, body: request.body },
      now,
    )
    if (request.path === AGENT_API_PATHS.heartbeat) return { status: 200, body: await recordHeartbeat(db, agent, json(request.body), now) }
    if (request.path === AGENT_API_PATHS.lease) {
      const job = await leaseNextJob(db, agent, now)
      return { status: 200, body: { job: job ? await leasedJobSpec(db, job, passwordReuseKey) : null } }
    }
    const jobPath = /^\/jobs\/([A-Za-z0-9_-]{1,64})\/(progress|result)$/.exec(request.path)
    if (jobPath?.[2] === 'progress') return { status: 200, body: await recordProgress(db, agent, jobPath[1]!, json(request.body), now) }
    if (jobPath?.[2] === 'result') return { status: 200, body: await recordResult(db, agent, jobPath[1]!, json(request.body), now) }
    throw new FleetError(404, 'There is no such call.')
  } catch (error) {
    if (error instanceof FleetError) return { status: error.status, body: { error: error.message } }
    // Answered by answerWithinDatabaseReach, as every call is while the database is away.
    if (sdkOutOfReach(error)) throw error
    logger.error('agentApi: failed', { path: request.path, error: String(error) })
    return { status: 500, body: { error: 'The server failed; try again.' } }
  }
}

export const agentApi = onRequest(
  { cors: false, timeoutSeconds: 300, memory: '512MiB', secrets: declaredSecrets(passwordReuseSecret) },
  async (req, res) => {
    const answer = await answerWithinDatabaseReach(() => handleAgentRequest(adminDb(), apiRequestOf(req)))
    res.status(answer.status).json(answer.body)
  },
)
