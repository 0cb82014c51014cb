// `npm run bench:session`: server rendering of a guarded page for a signed-in user (the edge
// verifies the session cookie and reads the user's access and company from Firestore over REST,
// then renders the page with that data) against the same page for a visitor without a session,
// which needs neither; both from the production build in workerd with the emulators behind it.
// Note: emulator ID tokens are unsigned, so the signature check of production tokens (see
// `npm run bench:verify`) is not in these figures.
import autocannon from 'autocannon'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS } from '../../emulators/firebase/env.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { withStack } from './preview-server.ts'

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = 8
const PAGE = '/reports'

async function idTokenFor(uid: string): Promise<string> {
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

async function measure(url: string, headers: Record<string, string>, expect: string) {
  const probe = await (await fetch(url, { headers })).text()
  if (!probe.includes(expect)) throw new Error(`${url} did not render "${expect}"`)
  await autocannon({ url, headers, connections: 2, amount: 50 })
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { medianMs: result.latency.p50, p99Ms: result.latency.p99, rps: result.requests.average }
}

await withStack(async (baseUrl) => {
  const account = demoAccount('viewer@acme.example')
  const cookie = `__Host-session=${await idTokenFor(account.uid)}`
  const url = `${baseUrl}${PAGE}`
  const guest = await measure(url, {}, 'You must be signed in')
  const member = await measure(url, { cookie }, account.email)
  const row = (name: string, m: typeof guest) =>
    `${name.padEnd(26)} median ${m.medianMs.toFixed(1).padStart(6)} ms   p99 ${m.p99Ms.toFixed(1).padStart(6)} ms   ${m.rps.toFixed(0).padStart(6)} req/s`
  console.log(`\n${PAGE} in workerd, ${CONNECTIONS} connections, ${DURATION_S}s each`)
  console.log(row('no session', guest))
  console.log(row('signed in (+ edge data)', member))
  console.log(
    `ratio signed-in/no-session: median latency ×${(member.medianMs / Math.max(guest.medianMs, 0.1)).toFixed(2)}, throughput ×${(member.rps / guest.rps).toFixed(2)}`,
  )
})
