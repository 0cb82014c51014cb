// Forwards the agent API (and the DAST API) from the app's origin to their Cloud Functions
// (decision 0021), so agents and CI pipelines need one address: the app's. Only the method, the
// path under the prefix, the body and the Authorization and Idempotency-Key headers are passed on;
// of the answer, its status, body, type, Retry-After and Idempotent-Replayed.
import { serverConfig } from './config.server'

const REGION = 'us-central1'

/** The function's base URL: the emulator's for `demo-` projects, else the deployed one. */
export function functionUrl(name: string): string {
  const config = serverConfig()
  if (config.emulators?.functions) return `http://${config.emulators.functions}/${config.projectId}/${REGION}/${name}`
  return `https://${REGION}-${config.projectId}.cloudfunctions.net/${name}`
}

export async function forwardToFunction(request: Request, prefix: string, name: string): Promise<Response> {
  const url = new URL(request.url)
  const rest = url.pathname.slice(prefix.length) || '/'
  const headers = new Headers({ 'content-type': request.headers.get('content-type') ?? 'application/json' })
  const authorization = request.headers.get('authorization')
  if (authorization) headers.set('authorization', authorization)
  const idempotencyKey = request.headers.get('idempotency-key')
  if (idempotencyKey !== null) headers.set('idempotency-key', idempotencyKey)
  const forwarded = request.headers.get('cf-connecting-ip')
  if (forwarded) headers.set('x-forwarded-for', forwarded)
  const answer = await fetch(`${functionUrl(name)}${rest}${url.search}`, {
    method: request.method,
    headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text(),
  })
  const retryAfter = answer.headers.get('retry-after')
  const replayed = answer.headers.get('idempotent-replayed')
  return new Response(answer.body, {
    status: answer.status,
    headers: {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
      'cache-control': 'no-store',
      ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      ...(replayed ? { 'idempotent-replayed': replayed } : {}),
    },
  })
}
