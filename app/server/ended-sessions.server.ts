// Sessions ended by signing out. A sealed refresh cookie is self-contained, so a copy taken before
// sign-out (a backup, a shared machine) would keep working for its 30 days: sign-out records its
// session id in the Worker's KV namespace until the cookie would have expired, and the edge
// refuses a recorded one. KV is eventually consistent: another location may take up to a minute
// to see it (decision 0020).
import { env } from 'cloudflare:workers'

/** The part of a KV namespace used here. */
export interface EndedSessionStore {
  get(key: string, options?: { cacheTtl?: number }): Promise<string | null>
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>
}

const key = (sessionId: string) => `ended:${sessionId}`
/** KV's shortest expiry. */
const MIN_TTL_SECONDS = 60

function store(): EndedSessionStore | null {
  return (env.SESSIONS as EndedSessionStore | undefined) ?? null
}

export async function endSessionId(sessionId: string, expiresAt: number, kv = store()): Promise<void> {
  if (!kv) return
  const ttl = Math.max(MIN_TTL_SECONDS, Math.ceil(expiresAt - Date.now() / 1000))
  await kv.put(key(sessionId), '1', { expirationTtl: ttl })
}

export async function sessionEnded(sessionId: string, kv = store()): Promise<boolean> {
  if (!kv) return false
  return (await kv.get(key(sessionId), { cacheTtl: 60 })) !== null
}
