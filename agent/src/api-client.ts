// The agent's side of the agent API (decision 0021): every call after enrolment is signed with
// the agent's private key, and every answer is checked against the shared schemas.
import * as v from 'valibot'
import {
  EnrolRequestSchema,
  AGENT_API_PATHS,
  EnrolResponseSchema,
  HeartbeatResponseSchema,
  LeaseResponseSchema,
  ProgressResponseSchema,
  ResultResponseSchema,
  type ResultRequest,
} from '#domain/agent-api.ts'
import { signAgentRequest, type SigningKey } from '#domain/agent-auth.ts'
import type { Scanner } from '#domain/agents.ts'

export class ApiError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

type Fetch = typeof fetch

/** This host's loopback, the only place plain http may reach (the local stack and the tests). */
const isLoopback = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)

/**
 * The agent API's root, without trailing slashes, provided it is https: the enrolment token and the
 * jobs (scope, a company's reuse key) must not travel in clear. Plain http is for the loopback only.
 */
export function serverBase(url: string): string {
  const refused = `The server must be an https:// address (plain http:// only on this host's loopback: localhost, 127.0.0.0/8, [::1]), not ${url}.`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(refused)
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback(parsed.hostname))) throw new Error(refused)
  return url.replace(/\/+$/, '')
}

async function post<S extends v.GenericSchema>(
  fetcher: Fetch,
  base: string,
  path: string,
  body: string,
  schema: S,
  authorization?: string,
) {
  const response = await fetcher(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body,
    signal: AbortSignal.timeout(120_000),
  })
  const answer: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message = (answer as { error?: unknown } | null)?.error
    throw new ApiError(response.status, typeof message === 'string' ? message : `The server answered ${response.status}.`)
  }
  return v.parse(schema, answer)
}

/** Exchanges the one-time token and the public key for the agent's identity. */
export async function enrol(base: string, request: v.InferInput<typeof EnrolRequestSchema>, fetcher: Fetch = fetch) {
  return post(fetcher, serverBase(base), AGENT_API_PATHS.enrol, JSON.stringify(request), EnrolResponseSchema)
}

export class AgentClient {
  private readonly base: string
  private readonly agentId: string
  private readonly key: SigningKey
  private readonly fetcher: Fetch

  constructor(base: string, agentId: string, key: SigningKey, fetcher: Fetch = fetch) {
    this.base = serverBase(base)
    this.agentId = agentId
    this.key = key
    this.fetcher = fetcher
  }

  private async signed<S extends v.GenericSchema>(path: string, data: unknown, schema: S) {
    const body = JSON.stringify(data)
    const authorization = await signAgentRequest(this.agentId, this.key, { method: 'POST', path, body })
    return post(this.fetcher, this.base, path, body, schema, authorization)
  }

  heartbeat(beat: { version: string; scanners: Scanner[]; problems: string[]; runningJobs: string[]; lastError: string | null }) {
    return this.signed(AGENT_API_PATHS.heartbeat, beat, HeartbeatResponseSchema)
  }

  lease() {
    return this.signed(AGENT_API_PATHS.lease, {}, LeaseResponseSchema)
  }

  progress(jobId: string, phase: string, message: string) {
    return this.signed(AGENT_API_PATHS.progress(jobId), { phase, message }, ProgressResponseSchema)
  }

  result(jobId: string, result: ResultRequest) {
    return this.signed(AGENT_API_PATHS.result(jobId), result, ResultResponseSchema)
  }
}
