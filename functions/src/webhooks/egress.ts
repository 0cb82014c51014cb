// Where a webhook may go (decisions 0034 and 0056): only to public addresses. The endpoint's host
// is resolved here and every address it gives is judged by the special-purpose registries of
// app/domain/special-addresses.ts (private, loopback, link-local and so the cloud metadata
// services, CGNAT, ULA, the IPv6 forms embedding IPv4...); one such address refuses the endpoint.
// The connection then goes to the address judged, never to a second lookup, so an answer changed
// in between (DNS rebinding) moves nothing. Redirects are not followed.
//
// The local stack's receivers listen on loopback: WEBHOOK_ALLOW_LOOPBACK=true lets webhooks reach
// loopback (and plain http there), and it counts only in a `demo-` project, which exists in the
// emulators alone (functions/.env.demo-sectest sets it; a deploy cannot).
import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { formatIp, parseIp } from '#domain/scan-scope.ts'
import { classifyAddress } from '#domain/special-addresses.ts'
import { WEBHOOK_LIMITS } from '#domain/webhooks.ts'

export interface EgressPolicy {
  /** Loopback (and http to it) allowed: the local stack's test receivers, never production. */
  allowLoopback: boolean
}

export function webhookEgressPolicy(env: NodeJS.ProcessEnv = process.env): EgressPolicy {
  const project = env.GCLOUD_PROJECT ?? env.GCP_PROJECT ?? (env.FIREBASE_CONFIG ? projectOf(env.FIREBASE_CONFIG) : '')
  return { allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === 'true' && project.startsWith('demo-') }
}

function projectOf(config: string): string {
  try {
    const parsed = JSON.parse(config) as { projectId?: unknown }
    return typeof parsed.projectId === 'string' ? parsed.projectId : ''
  } catch {
    return ''
  }
}

/** The addresses a name resolves to, as the system's resolver gives them. */
export type Resolve = (host: string) => Promise<string[]>

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address)

export type EgressVerdict = { url: URL; address: string } | { refusal: string }

/** The address an endpoint's URL is reached at, or why it may not be. */
export async function judgeWebhookUrl(text: string, policy: EgressPolicy, resolve: Resolve = systemResolve): Promise<EgressVerdict> {
  if (!URL.canParse(text)) return { refusal: `${text} is not an address` }
  const url = new URL(text)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  let texts: string[]
  if (isIP(host)) texts = [host]
  else if (host === 'localhost' || host.endsWith('.localhost')) texts = ['127.0.0.1']
  else {
    try {
      texts = await resolve(host)
    } catch {
      return { refusal: `${host} does not resolve` }
    }
  }
  if (texts.length === 0) return { refusal: `${host} does not resolve` }
  let loopbackOnly = true
  for (const answer of texts) {
    const address = parseIp(answer)
    if (!address) return { refusal: `${host} resolved to ${answer}, which is not an address` }
    const { special } = classifyAddress(address)
    const loopback = special?.name === 'loopback'
    loopbackOnly &&= loopback
    if (special && !(loopback && policy.allowLoopback)) {
      const what = answer === host ? formatIp(address) : `${host} resolves to ${formatIp(address)}, which`
      return { refusal: `${what} is a ${special.name} address (${special.cidr}): webhooks go to public addresses only` }
    }
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackOnly && policy.allowLoopback))
    return { refusal: 'Webhooks are sent over https only' }
  return { url, address: texts[0]! }
}

export interface EgressAnswer {
  /** null when no answer came. */
  status: number | null
  /** The first bytes of the answer, as text. */
  answer: string
  error: string | null
  durationMs: number
}

/** POSTs `body` to the judged address with the headers, within the timeout; never throws. */
export function postToWebhook(
  verdict: { url: URL; address: string },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number = WEBHOOK_LIMITS.timeoutMs,
): Promise<EgressAnswer> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const { url, address } = verdict
  const secure = url.protocol === 'https:'
  return new Promise((resolve) => {
    let settled = false
    const settle = (answer: Omit<EgressAnswer, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...answer, durationMs: elapsed() })
    }
    const request = (secure ? https : http).request(
      {
        host: address,
        port: Number(url.port || (secure ? 443 : 80)),
        method: 'POST',
        path: `${url.pathname}${url.search}`,
        // The certificate is checked against the endpoint's name, not the address connected to.
        ...(secure && !isIP(url.hostname.replace(/^\[|\]$/g, '')) ? { servername: url.hostname } : {}),
        headers: {
          ...headers,
          host: url.host,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Bulwark-Webhooks/1',
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = []
        let kept = 0
        response.on('data', (chunk: Buffer) => {
          if (kept >= WEBHOOK_LIMITS.answerBytes) return
          chunks.push(chunk)
          kept += chunk.length
          if (kept >= WEBHOOK_LIMITS.answerBytes) response.destroy()
        })
        const done = () =>
          settle({
            status: response.statusCode ?? null,
            answer: Buffer.concat(chunks).subarray(0, WEBHOOK_LIMITS.answerBytes).toString('utf8'),
            error: null,
          })
        response.on('end', done)
        response.on('close', done)
        response.on('error', done)
      },
    )
    const timer = setTimeout(() => {
      settle({ status: null, answer: '', error: `No answer within ${Math.round(timeoutMs / 1000)} s` })
      request.destroy()
    }, timeoutMs)
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle({ status: null, answer: '', error: `Could not reach ${url.host} (${error.code ?? error.message})` }),
    )
    request.end(body)
  })
}
