import * as v from 'valibot'

const TokenResponseSchema = v.object({
  id_token: v.string(),
  refresh_token: v.string(),
  user_id: v.string(),
})

export interface RefreshedTokens {
  idToken: string
  refreshToken: string
  uid: string
}

/**
 * Exchanges a refresh token for a new ID token through the Secure Token API (or the Auth emulator's
 * copy of it). Returns null when the refresh token is no longer valid (revoked, user disabled or
 * deleted); other failures throw.
 */
export async function refreshIdToken(
  options: { apiKey: string; authEmulatorHost?: string },
  refreshToken: string,
): Promise<RefreshedTokens | null> {
  const base = options.authEmulatorHost
    ? `http://${options.authEmulatorHost}/securetoken.googleapis.com`
    : 'https://securetoken.googleapis.com'
  const response = await fetch(`${base}/v1/token?key=${encodeURIComponent(options.apiKey)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    signal: AbortSignal.timeout(5_000),
  })
  if (response.status === 400 || response.status === 401 || response.status === 403) return null
  if (!response.ok) throw new Error(`Secure Token API answered ${response.status}`)
  const body = v.parse(TokenResponseSchema, await response.json())
  return { idToken: body.id_token, refreshToken: body.refresh_token, uid: body.user_id }
}
