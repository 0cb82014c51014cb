// `node --experimental-strip-types tests/bench/verify-token.ts`: cost of verifying an ID token at
// the edge with a warm JWKS cache, against a bare decode of the same tokens. Prints, never asserts.
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose'
import { createIdTokenVerifier } from '../../app/server/id-token.server.ts'

const TOKENS = 2000
const BATCH = 250
const ROUNDS = 5
const PROJECT = 'sectest-bench'
const KID = 'bench-key'

const { privateKey, publicKey } = await generateKeyPair('RS256')
const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }
let fetches = 0
const verifier = createIdTokenVerifier({
  projectId: PROJECT,
  jwksUrl: 'https://jwks.bench/securetoken',
  fetch: async () => {
    fetches++
    return new Response(JSON.stringify({ keys: [jwk] }), { headers: { 'cache-control': 'public, max-age=21600' } })
  },
})

const now = Math.floor(Date.now() / 1000)
const tokens: string[] = []
for (let i = 0; i < TOKENS; i++) {
  const payload = {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    auth_time: now - 600,
    user_id: `user-${i}`,
    sub: `user-${i}`,
    iat: now - 60,
    exp: now + 3540,
    email: `user-${i}@example.com`,
    email_verified: true,
    firebase: { identities: { email: [`user-${i}@example.com`] }, sign_in_provider: 'password' },
    accessLevel: 'admin',
    userType: 'staff',
  }
  tokens.push(await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' }).sign(privateKey))
}

// Warm the JWKS cache and the JIT before measuring.
for (const token of tokens.slice(0, 200)) await verifier.verify(token)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function measure(run: (token: string) => unknown): Promise<number> {
  const perOp: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (let start = 0; start < tokens.length; start += BATCH) {
      const batch = tokens.slice(start, start + BATCH)
      const t0 = performance.now()
      for (const token of batch) await run(token)
      perOp.push(((performance.now() - t0) * 1000) / batch.length)
    }
  }
  return median(perOp)
}

const verifyUs = await measure((token) => verifier.verify(token))
const decodeUs = await measure((token) => decodeJwt(token))

console.log(`\nID token verification, ${TOKENS} tokens, ${ROUNDS} rounds in batches of ${BATCH} (${process.version})`)
console.log(`  verify (RS256, warm JWKS)  ${verifyUs.toFixed(1).padStart(8)} µs/token`)
console.log(`  decodeJwt (no signature)   ${decodeUs.toFixed(1).padStart(8)} µs/token`)
console.log(`  verify / decode            ${(verifyUs / decodeUs).toFixed(1).padStart(8)} ×`)
console.log(`  JWKS fetches               ${String(fetches).padStart(8)}`)
