import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose'
import type { JWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createIdTokenVerifier, GOOGLE_SECURETOKEN_JWKS_URL, IdTokenError } from './id-token.server'
import type { IdTokenErrorReason } from './id-token.server'

const PROJECT = 'sectest-prod'
const DEMO = 'demo-sectest'
const START = Date.UTC(2025, 0, 15, 12, 0, 0)

interface TestKey {
  kid: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  jwk: JWK
}

async function makeKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
  return { kid, privateKey, publicKey, jwk }
}

let keyA: TestKey
let keyB: TestKey
// Same kid as keyA, different key material.
let impostor: TestKey

beforeAll(async () => {
  ;[keyA, keyB, impostor] = await Promise.all([makeKey('key-a'), makeKey('key-b'), makeKey('key-a')])
})

// A distinct URL per test keeps the per-isolate JWKS cache isolated without a reset hook.
let urlCounter = 0
function freshUrl(): string {
  return `https://jwks.test/${++urlCounter}/securetoken`
}

interface JwksServer {
  fetch: typeof fetch
  calls(): number
  keys: JWK[]
  headers: Record<string, string>
  fail: 'none' | 'throw' | 'status' | 'json'
}

function jwksServer(keys: TestKey[], maxAge: number | null = 3600): JwksServer {
  let calls = 0
  const server: JwksServer = {
    keys: keys.map((key) => key.jwk),
    headers: maxAge === null ? {} : { 'cache-control': `public, max-age=${maxAge}, must-revalidate, no-transform` },
    fail: 'none',
    calls: () => calls,
    fetch: async () => {
      calls++
      // Yield like a real network round trip so concurrent callers overlap.
      await new Promise((resolve) => setTimeout(resolve, 5))
      if (server.fail === 'throw') throw new TypeError('network down')
      if (server.fail === 'status') return new Response('oops', { status: 503 })
      if (server.fail === 'json') return new Response('<html>', { status: 200 })
      return new Response(JSON.stringify({ keys: server.keys }), {
        headers: { 'content-type': 'application/json', ...server.headers },
      })
    },
  }
  return server
}

function clock(start = START) {
  let ms = start
  return {
    now: () => ms,
    advance(seconds: number) {
      ms += seconds * 1000
    },
  }
}

const nowSeconds = Math.floor(START / 1000)

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    auth_time: nowSeconds - 600,
    user_id: 'user-1',
    sub: 'user-1',
    iat: nowSeconds - 60,
    exp: nowSeconds - 60 + 3600,
    email: 'ana@example.com',
    email_verified: true,
    firebase: { identities: { email: ['ana@example.com'] }, sign_in_provider: 'password' },
    accessLevel: 'admin',
    userType: 'staff',
    ...overrides,
  }
}

function sign(payload: Record<string, unknown>, key: TestKey = keyA, kid: string = key.kid): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key.privateKey)
}

function encodeJson(value: unknown): string {
  return base64url.encode(JSON.stringify(value))
}

function unsigned(payload: Record<string, unknown>): string {
  return `${encodeJson({ alg: 'none', typ: 'JWT' })}.${encodeJson(payload)}.`
}

function demoClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return claims({ iss: `https://securetoken.google.com/${DEMO}`, aud: DEMO, ...overrides })
}

async function hs256(payload: Record<string, unknown>, secret: Uint8Array<ArrayBuffer>, kid: string): Promise<string> {
  const input = `${encodeJson({ alg: 'HS256', kid, typ: 'JWT' })}.${encodeJson(payload)}`
  const hmac = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(input)))
  return `${input}.${base64url.encode(mac)}`
}

async function reasonOf(promise: Promise<unknown>): Promise<IdTokenErrorReason | 'accepted'> {
  try {
    await promise
    return 'accepted'
  } catch (error) {
    if (error instanceof IdTokenError) return error.reason
    throw error
  }
}

function setup(options: { keys?: TestKey[]; maxAge?: number | null; projectId?: string; emulator?: boolean } = {}) {
  const server = jwksServer(options.keys ?? [keyA], options.maxAge === undefined ? 3600 : options.maxAge)
  const time = clock()
  const jwksUrl = freshUrl()
  const verifier = createIdTokenVerifier({
    projectId: options.projectId ?? PROJECT,
    emulator: options.emulator,
    jwksUrl,
    fetch: server.fetch,
    now: time.now,
  })
  return { server, time, verifier, jwksUrl }
}

describe('createIdTokenVerifier', () => {
  it('defaults to Google securetoken JWKS', () => {
    expect(GOOGLE_SECURETOKEN_JWKS_URL).toBe('https://www.googleapis.com/robot/v1/metadata/jwk/securetoken@system.gserviceaccount.com')
  })

  it('refuses emulator mode outside demo- projects', () => {
    expect(() => createIdTokenVerifier({ projectId: PROJECT, emulator: true })).toThrow(/demo-/)
    expect(() => createIdTokenVerifier({ projectId: DEMO, emulator: true })).not.toThrow()
  })

  it('refuses an empty project id and a nonsense skew', () => {
    expect(() => createIdTokenVerifier({ projectId: '' })).toThrow(/projectId/)
    expect(() => createIdTokenVerifier({ projectId: PROJECT, clockSkewSeconds: -1 })).toThrow(/clockSkewSeconds/)
    expect(() => createIdTokenVerifier({ projectId: PROJECT, clockSkewSeconds: Number.NaN })).toThrow(/clockSkewSeconds/)
  })
})

describe('verify: accepted tokens', () => {
  it('accepts a valid RS256 token and exposes uid, email and custom claims', async () => {
    const { verifier, server } = setup()
    const result = await verifier.verify(await sign(claims()))
    expect(result).toMatchObject({
      uid: 'user-1',
      email: 'ana@example.com',
      emailVerified: true,
      authTime: nowSeconds - 600,
      issuedAt: nowSeconds - 60,
      expiresAt: nowSeconds + 3540,
    })
    expect(result.claims.accessLevel).toBe('admin')
    expect(result.claims.userType).toBe('staff')
    expect(result.claims.firebase).toEqual({ identities: { email: ['ana@example.com'] }, sign_in_provider: 'password' })
    expect(server.calls()).toBe(1)
  })

  it('leaves email undefined and emailVerified false when absent', async () => {
    const { verifier } = setup()
    const result = await verifier.verify(await sign(claims({ email: undefined, email_verified: undefined })))
    expect(result.email).toBeUndefined()
    expect(result.emailVerified).toBe(false)
  })

  it('accepts iat and auth_time up to the skew ahead, and a 128-char sub', async () => {
    const { verifier } = setup()
    const sub = 'u'.repeat(128)
    const result = await verifier.verify(await sign(claims({ iat: nowSeconds + 30, auth_time: nowSeconds + 30, sub })))
    expect(result.uid).toBe(sub)
  })

  it('accepts an unsigned emulator token in a demo project with emulator on, without fetching keys', async () => {
    const { verifier, server } = setup({ projectId: DEMO, emulator: true })
    const result = await verifier.verify(unsigned(demoClaims({ revoked: 0, synced: nowSeconds - 5 })))
    expect(result.uid).toBe('user-1')
    expect(result.claims.synced).toBe(nowSeconds - 5)
    expect(server.calls()).toBe(0)
  })
})

describe('verify: rejected tokens', () => {
  it('rejects a missing token', async () => {
    const { verifier } = setup()
    for (const token of [null, undefined, '']) expect(await reasonOf(verifier.verify(token))).toBe('missing')
  })

  it('rejects garbage', async () => {
    const { verifier, server } = setup()
    for (const token of ['garbage', 'a.b', 'a.b.c', '...', '!!.??.**', 'a.b.c.d.e', 'x'.repeat(20_000)]) {
      expect(await reasonOf(verifier.verify(token))).toBe('malformed')
    }
    expect(server.calls()).toBe(0)
  })

  it('rejects a token whose header has no kid', async () => {
    const { verifier } = setup()
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(keyA.privateKey)
    expect(await reasonOf(verifier.verify(token))).toBe('malformed')
  })

  it('rejects alg none in a non-demo project', async () => {
    const { verifier } = setup()
    expect(await reasonOf(verifier.verify(unsigned(claims())))).toBe('algorithm')
  })

  it('rejects alg none in a demo project when the emulator is off', async () => {
    const { verifier } = setup({ projectId: DEMO })
    expect(await reasonOf(verifier.verify(unsigned(demoClaims())))).toBe('algorithm')
  })

  it('rejects HS256 signed with the public key as the HMAC secret (key confusion)', async () => {
    const { verifier, server } = setup()
    const pem = new TextEncoder().encode(await exportSPKI(keyA.publicKey))
    const jwkBytes = new TextEncoder().encode(JSON.stringify(keyA.jwk))
    const nBytes = new Uint8Array(base64url.decode(keyA.jwk.n!))
    for (const secret of [pem, jwkBytes, nBytes]) {
      expect(await reasonOf(verifier.verify(await hs256(claims(), secret, keyA.kid)))).toBe('algorithm')
    }
    expect(server.calls()).toBe(0)
  })

  it('rejects other algorithms, even if close to RS256', async () => {
    const { verifier } = setup()
    const payload = encodeJson(claims())
    for (const alg of ['RS512', 'PS256', 'ES256', 'None', 'NONE', 'rs256']) {
      const token = `${encodeJson({ alg, kid: keyA.kid })}.${payload}.c2ln`
      expect(await reasonOf(verifier.verify(token))).toBe('algorithm')
    }
  })

  it('rejects a bad signature (another key with the same kid)', async () => {
    const { verifier } = setup()
    expect(await reasonOf(verifier.verify(await sign(claims(), impostor)))).toBe('signature')
  })

  it('rejects a tampered payload', async () => {
    const { verifier } = setup()
    const [header, , signature] = (await sign(claims({ accessLevel: 'viewer' }))).split('.')
    const tampered = `${header}.${encodeJson(claims({ accessLevel: 'admin' }))}.${signature}`
    expect(await reasonOf(verifier.verify(tampered))).toBe('signature')
    const otherUser = `${header}.${encodeJson(claims({ sub: 'user-2', user_id: 'user-2' }))}.${signature}`
    expect(await reasonOf(verifier.verify(otherUser))).toBe('signature')
  })

  it('rejects an unknown kid after exactly one refetch, then holds off further refetches', async () => {
    const { verifier, server, time } = setup()
    await verifier.verify(await sign(claims()))
    expect(server.calls()).toBe(1)

    expect(await reasonOf(verifier.verify(await sign(claims(), keyB)))).toBe('unknown-key')
    expect(server.calls()).toBe(2)

    // Random kids within the cooldown must not reach the JWKS endpoint.
    for (let i = 0; i < 20; i++) {
      expect(await reasonOf(verifier.verify(await sign(claims(), keyB, `random-${i}`)))).toBe('unknown-key')
    }
    expect(server.calls()).toBe(2)

    time.advance(61)
    expect(await reasonOf(verifier.verify(await sign(claims(), keyB, 'random-late')))).toBe('unknown-key')
    expect(server.calls()).toBe(3)
  })

  it('shares one refetch between concurrent unknown-kid verifications', async () => {
    const { verifier, server } = setup()
    await verifier.verify(await sign(claims()))
    const token = await sign(claims(), keyB)
    const reasons = await Promise.all(Array.from({ length: 25 }, () => reasonOf(verifier.verify(token))))
    expect(new Set(reasons)).toEqual(new Set(['unknown-key']))
    expect(server.calls()).toBe(2)
  })

  it('does not refetch right after a cold fetch that lacked the kid', async () => {
    const { verifier, server } = setup()
    expect(await reasonOf(verifier.verify(await sign(claims(), keyB)))).toBe('unknown-key')
    expect(server.calls()).toBe(1)
  })

  it('rejects an expired token', async () => {
    const { verifier } = setup()
    expect(await reasonOf(verifier.verify(await sign(claims({ exp: nowSeconds - 1 }))))).toBe('expired')
    expect(await reasonOf(verifier.verify(await sign(claims({ exp: nowSeconds }))))).toBe('expired')
  })

  it('rejects a token once its exp passes on the injected clock', async () => {
    const { verifier, time } = setup()
    const token = await sign(claims())
    await verifier.verify(token)
    time.advance(3540)
    expect(await reasonOf(verifier.verify(token))).toBe('expired')
  })

  it('rejects iat in the future beyond the skew', async () => {
    const { verifier } = setup()
    expect(await reasonOf(verifier.verify(await sign(claims({ iat: nowSeconds + 31 }))))).toBe('issued-in-future')
  })

  it('rejects auth_time in the future beyond the skew', async () => {
    const { verifier } = setup()
    expect(await reasonOf(verifier.verify(await sign(claims({ auth_time: nowSeconds + 31 }))))).toBe('auth-time-in-future')
  })

  it('honours a custom skew', async () => {
    const server = jwksServer([keyA])
    const verifier = createIdTokenVerifier({
      projectId: PROJECT,
      jwksUrl: freshUrl(),
      fetch: server.fetch,
      now: clock().now,
      clockSkewSeconds: 0,
    })
    expect(await reasonOf(verifier.verify(await sign(claims({ iat: nowSeconds + 1 }))))).toBe('issued-in-future')
    expect(await reasonOf(verifier.verify(await sign(claims({ iat: nowSeconds }))))).toBe('accepted')
  })

  it('rejects missing or non-numeric time claims', async () => {
    const { verifier } = setup()
    for (const override of [{ auth_time: undefined }, { iat: undefined }, { exp: undefined }, { auth_time: '1700000000' }]) {
      expect(await reasonOf(verifier.verify(await sign(claims(override))))).toBe('malformed')
    }
  })

  it('rejects the wrong audience', async () => {
    const { verifier } = setup()
    for (const aud of ['other-project', [PROJECT, 'other-project'], [PROJECT], undefined]) {
      expect(await reasonOf(verifier.verify(await sign(claims({ aud }))))).toBe('audience')
    }
  })

  it('rejects the wrong issuer', async () => {
    const { verifier } = setup()
    for (const iss of [
      'https://securetoken.google.com/other-project',
      'https://accounts.google.com',
      `https://securetoken.google.com/${PROJECT}/`,
      undefined,
    ]) {
      expect(await reasonOf(verifier.verify(await sign(claims({ iss }))))).toBe('issuer')
    }
  })

  it('rejects an empty, missing, non-string or over-long sub', async () => {
    const { verifier } = setup()
    for (const sub of ['', undefined, 42, 'u'.repeat(129)]) {
      expect(await reasonOf(verifier.verify(await sign(claims({ sub }))))).toBe('subject')
    }
  })

  it('applies every claim check to emulator tokens too', async () => {
    const { verifier } = setup({ projectId: DEMO, emulator: true })
    const cases: [Record<string, unknown>, IdTokenErrorReason][] = [
      [{ exp: nowSeconds - 1 }, 'expired'],
      [{ iat: nowSeconds + 31 }, 'issued-in-future'],
      [{ auth_time: nowSeconds + 31 }, 'auth-time-in-future'],
      [{ aud: PROJECT }, 'audience'],
      [{ iss: `https://securetoken.google.com/${PROJECT}` }, 'issuer'],
      [{ sub: '' }, 'subject'],
      [{ sub: 'u'.repeat(129) }, 'subject'],
    ]
    for (const [override, reason] of cases) {
      expect(await reasonOf(verifier.verify(unsigned(demoClaims(override))))).toBe(reason)
    }
  })

  it('rejects an alg none token that carries a signature, even in emulator mode', async () => {
    const { verifier } = setup({ projectId: DEMO, emulator: true })
    expect(await reasonOf(verifier.verify(`${unsigned(demoClaims())}c2ln`))).toBe('malformed')
  })

  it('still verifies RS256 tokens properly in emulator mode', async () => {
    const { verifier } = setup({ projectId: DEMO, emulator: true })
    expect(await reasonOf(verifier.verify(await sign(demoClaims())))).toBe('accepted')
    expect(await reasonOf(verifier.verify(await sign(demoClaims(), impostor)))).toBe('signature')
  })
})

describe('JWKS cache', () => {
  it('fetches the JWKS once for 1,000 verifications', async () => {
    const { verifier, server } = setup()
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => sign(claims({ sub: `user-${i}` }))))
    for (let i = 0; i < 1000; i++) {
      const result = await verifier.verify(tokens[i % tokens.length])
      expect(result.uid).toBe(`user-${i % tokens.length}`)
    }
    expect(server.calls()).toBe(1)
  })

  it('shares one fetch between concurrent verifications on a cold cache', async () => {
    const { verifier, server } = setup()
    const token = await sign(claims())
    const results = await Promise.all(Array.from({ length: 50 }, () => verifier.verify(token)))
    expect(results).toHaveLength(50)
    expect(server.calls()).toBe(1)
  })

  it('shares the cache between verifiers of the same URL', async () => {
    const server = jwksServer([keyA])
    const jwksUrl = freshUrl()
    const time = clock()
    const first = createIdTokenVerifier({ projectId: PROJECT, jwksUrl, fetch: server.fetch, now: time.now })
    const second = createIdTokenVerifier({ projectId: PROJECT, jwksUrl, fetch: server.fetch, now: time.now })
    const token = await sign(claims())
    await first.verify(token)
    await second.verify(token)
    expect(server.calls()).toBe(1)
  })

  it('refetches after max-age passes', async () => {
    const { verifier, server, time } = setup({ maxAge: 600 })
    const token = await sign(claims())
    await verifier.verify(token)
    time.advance(599)
    await verifier.verify(token)
    expect(server.calls()).toBe(1)
    time.advance(1)
    await verifier.verify(token)
    expect(server.calls()).toBe(2)
    await verifier.verify(token)
    expect(server.calls()).toBe(2)
  })

  it('subtracts the Age header from max-age', async () => {
    const { verifier, server, time } = setup({ maxAge: 600 })
    server.headers.age = '590'
    const token = await sign(claims())
    await verifier.verify(token)
    time.advance(9)
    await verifier.verify(token)
    expect(server.calls()).toBe(1)
    time.advance(1)
    await verifier.verify(token)
    expect(server.calls()).toBe(2)
  })

  it('falls back to one hour without Cache-Control', async () => {
    const { verifier, server, time } = setup({ maxAge: null })
    const token = await sign(claims({ exp: nowSeconds + 7200 }))
    await verifier.verify(token)
    time.advance(3599)
    await verifier.verify(token)
    expect(server.calls()).toBe(1)
    time.advance(1)
    await verifier.verify(token)
    expect(server.calls()).toBe(2)
  })

  it('picks up a rotated key through the one refetch', async () => {
    const { verifier, server } = setup()
    await verifier.verify(await sign(claims()))
    server.keys = [keyA.jwk, keyB.jwk]
    const result = await verifier.verify(await sign(claims({ sub: 'user-b' }), keyB))
    expect(result.uid).toBe('user-b')
    expect(server.calls()).toBe(2)
    // Both keys now come from cache.
    await verifier.verify(await sign(claims()))
    await verifier.verify(await sign(claims(), keyB))
    expect(server.calls()).toBe(2)
  })

  it('skips unusable JWKS entries but keeps the good ones', async () => {
    const { verifier, server } = setup()
    server.keys = [{ kty: 'EC', kid: 'ec' }, { ...keyB.jwk, alg: 'RS512' }, { kty: 'RSA', kid: 'broken', n: 'AA', e: 'AQAB' }, keyA.jwk]
    expect(await reasonOf(verifier.verify(await sign(claims())))).toBe('accepted')
    expect(await reasonOf(verifier.verify(await sign(claims(), keyB)))).toBe('unknown-key')
  })

  it('reports jwks-unavailable when the endpoint fails, and recovers afterwards', async () => {
    const { verifier, server, time } = setup()
    const token = await sign(claims({ exp: nowSeconds + 7200 }))
    for (const fail of ['throw', 'status', 'json'] as const) {
      server.fail = fail
      expect(await reasonOf(verifier.verify(token))).toBe('jwks-unavailable')
      time.advance(600)
    }
    server.fail = 'none'
    server.keys = []
    expect(await reasonOf(verifier.verify(token))).toBe('jwks-unavailable')
    time.advance(600)
    server.keys = [keyA.jwk]
    expect(await reasonOf(verifier.verify(token))).toBe('accepted')
  })

  it('backs off after a failed fetch instead of fetching on every request', async () => {
    const { verifier, server, time } = setup()
    const token = await sign(claims({ exp: nowSeconds + 7200 }))
    server.fail = 'status'
    expect(await reasonOf(verifier.verify(token))).toBe('jwks-unavailable')
    for (let i = 0; i < 20; i++) expect(await reasonOf(verifier.verify(token))).toBe('jwks-unavailable')
    expect(server.calls()).toBe(1)
    time.advance(5)
    expect(await reasonOf(verifier.verify(token))).toBe('jwks-unavailable')
    expect(server.calls()).toBe(2)
    // The wait doubles: 10 s now.
    time.advance(9)
    await verifier.verify(token).catch(() => {})
    expect(server.calls()).toBe(2)
    server.fail = 'none'
    time.advance(1)
    expect(await reasonOf(verifier.verify(token))).toBe('accepted')
    expect(server.calls()).toBe(3)
  })

  it('keeps verifying with the last good keys while the endpoint fails, for a bounded time', async () => {
    const { verifier, server, time } = setup({ maxAge: 600 })
    await verifier.verify(await sign(claims()))
    server.fail = 'throw'
    time.advance(601)
    expect(
      await reasonOf(verifier.verify(await sign(claims({ iat: nowSeconds + 601, auth_time: nowSeconds + 601, exp: nowSeconds + 4000 })))),
    ).toBe('accepted')
    time.advance(6 * 3600)
    const late = nowSeconds + 601 + 6 * 3600
    expect(await reasonOf(verifier.verify(await sign(claims({ iat: late, auth_time: late, exp: late + 3600 }))))).toBe('jwks-unavailable')
  })

  it('keeps a response already older than its max-age for a few seconds, not zero', async () => {
    const { verifier, server, time } = setup({ maxAge: 600 })
    server.headers.age = '900'
    const token = await sign(claims())
    await verifier.verify(token)
    await verifier.verify(token)
    expect(server.calls()).toBe(1)
    time.advance(10)
    await verifier.verify(token)
    expect(server.calls()).toBe(2)
  })

  it('reports jwks-unavailable when the refetch for an unknown kid fails', async () => {
    const { verifier, server } = setup()
    await verifier.verify(await sign(claims()))
    server.fail = 'status'
    expect(await reasonOf(verifier.verify(await sign(claims(), keyB)))).toBe('jwks-unavailable')
    // The cached keys still serve known kids.
    expect(await reasonOf(verifier.verify(await sign(claims())))).toBe('accepted')
  })
})
