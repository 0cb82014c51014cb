// What the page benchmarks share: a demo user's ID token from the Auth emulator (for the session
// cookie), and one page measured under load after a short warm-up.
import autocannon from 'autocannon'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'

export const DURATION_S = Number(process.env.BENCH_DURATION ?? 8)
export const CONNECTIONS = 8

export async function idTokenFor(uid: string): Promise<string> {
  const customToken = await sharedAdmin().auth.createCustomToken(uid)
  const response = await fetch(
    `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-api-key`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: customToken, returnSecureToken: true }),
    },
  )
  return ((await response.json()) as { idToken: string }).idToken
}

export interface Measured {
  medianMs: number
  p99Ms: number
  rps: number
}

/**
 * Proof that the page is the one meant (it renders `expect`), then enough requests for its code to
 * run hot: warm every page of a comparison before measuring any, or the first one measured pays
 * for the isolate's warm-up.
 */
export async function warmUp(url: string, headers: Record<string, string>, expect: string): Promise<void> {
  const probe = await (await fetch(url, { headers })).text()
  if (!probe.includes(expect)) throw new Error(`${url} did not render "${expect}"`)
  await autocannon({ url, headers, connections: 2, amount: 300 })
}

/** The page's latency and throughput under CONNECTIONS connections for DURATION_S seconds. */
export async function measure(url: string, headers: Record<string, string>): Promise<Measured> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { medianMs: result.latency.p50, p99Ms: result.latency.p99, rps: result.requests.average }
}

export const row = (name: string, m: Measured) =>
  `${name.padEnd(30)} median ${m.medianMs.toFixed(1).padStart(6)} ms   p99 ${m.p99Ms.toFixed(1).padStart(6)} ms   ${m.rps.toFixed(0).padStart(6)} req/s`

export const ratio = (label: string, slow: Measured, fast: Measured) =>
  `ratio ${label}: median latency ×${(slow.medianMs / Math.max(fast.medianMs, 0.1)).toFixed(2)}, throughput ×${(slow.rps / fast.rps).toFixed(2)}`
