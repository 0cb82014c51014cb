// API keys as Algolia checks them. The admin key may do everything, the search key only search.
// A secured API key is base64(hex HMAC-SHA256(parent key, restrictions) + restrictions), where the
// restrictions are url-encoded query parameters; its parent here is the search key.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { ApiError } from './api-error.ts'
import { paramsFromQueryString, parseListParam } from './search-params.ts'

const INVALID_KEY_MESSAGE = 'Invalid Application-ID or API key'
const METHOD_NOT_ALLOWED_MESSAGE = 'Method not allowed with this API key'
const INDEX_NOT_ALLOWED_MESSAGE = 'Index not allowed with this API key'
/** Algolia answers an expired secured key with 400 and this message. */
const EXPIRED_KEY_MESSAGE = 'validUntil parameter expired (less than current date)'

export type Credentials = { appId: string; adminApiKey: string; searchApiKey: string }

export type Access =
  | { kind: 'admin' }
  | { kind: 'search' }
  | {
      kind: 'secured'
      /** Index name patterns; `*` matches any run of characters. */
      restrictIndices: string[] | undefined
      /** The key's `filters`, ANDed with the query's. */
      filters: string | undefined
      /** Every other search parameter in the key: they override the query's. */
      searchParams: Record<string, unknown>
    }

// Restrictions that are about the key, not search parameters. restrictSources and referers are
// accepted and not enforced: every request to the emulator comes from this machine.
const KEY_ONLY_PARAMS = new Set(['validUntil', 'restrictIndices', 'restrictSources', 'referers', 'userToken'])

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** Who is calling, from the application ID and API key; throws 403 (or 400 when expired). */
export function authenticate(appId: string | undefined, apiKey: string | undefined, credentials: Credentials, now = Date.now()): Access {
  if (!appId || !apiKey || !sameText(appId, credentials.appId)) throw new ApiError(403, INVALID_KEY_MESSAGE)
  if (sameText(apiKey, credentials.adminApiKey)) return { kind: 'admin' }
  if (sameText(apiKey, credentials.searchApiKey)) return { kind: 'search' }
  return securedKeyAccess(apiKey, credentials.searchApiKey, now)
}

function securedKeyAccess(apiKey: string, parentKey: string, now: number): Access {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(apiKey)) throw new ApiError(403, INVALID_KEY_MESSAGE)
  const decoded = Buffer.from(apiKey, 'base64').toString('utf8')
  const signature = decoded.slice(0, 64)
  const restrictions = decoded.slice(64)
  if (!/^[0-9a-f]{64}$/.test(signature)) throw new ApiError(403, INVALID_KEY_MESSAGE)
  const expected = createHmac('sha256', parentKey).update(restrictions).digest('hex')
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) throw new ApiError(403, INVALID_KEY_MESSAGE)

  const params = new URLSearchParams(restrictions)
  const validUntil = params.get('validUntil')
  if (validUntil !== null) {
    const seconds = Number(validUntil)
    if (validUntil.trim() === '' || !Number.isFinite(seconds)) {
      throw new ApiError(400, 'validUntil must be a Unix timestamp in seconds')
    }
    if (seconds * 1000 < now) throw new ApiError(400, EXPIRED_KEY_MESSAGE)
  }
  const indices = params.get('restrictIndices')
  const filters = params.get('filters') ?? undefined
  for (const name of [...KEY_ONLY_PARAMS, 'filters']) params.delete(name)
  return {
    kind: 'secured',
    restrictIndices: indices === null ? undefined : listOfNames(indices),
    filters,
    searchParams: paramsFromQueryString(params.toString()),
  }
}

function listOfNames(text: string): string[] {
  const list = parseListParam(text)
  return Array.isArray(list) ? list.map(String).filter((name) => name !== '') : []
}

function matchesPattern(indexName: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${source}$`).test(indexName)
}

/** Throws 403 unless the key may search `indexName`. */
export function assertIndexAllowed(access: Access, indexName: string): void {
  if (access.kind !== 'secured' || access.restrictIndices === undefined) return
  if (!access.restrictIndices.some((pattern) => matchesPattern(indexName, pattern))) {
    throw new ApiError(403, INDEX_NOT_ALLOWED_MESSAGE)
  }
}

/** What a route needs: `search` (queries), `read` (records by objectID) or `admin` (everything else). */
export type Permission = 'search' | 'read' | 'admin'

/** Throws 403 unless `access` covers `permission`. A secured key may not `read`: its filters would not apply. */
export function assertPermission(access: Access, permission: Permission): void {
  const allowed = access.kind === 'admin' || permission === 'search' || (permission === 'read' && access.kind === 'search')
  if (!allowed) throw new ApiError(403, METHOD_NOT_ALLOWED_MESSAGE)
}
