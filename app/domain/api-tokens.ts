// api_tokens/{id}: tokens a company's tools present to the client API (/api/v1/findings, /scans)
// and, with `dast:trigger`, to the DAST API (/admin/api-tokens, decision 0050). A token reads
// `bwk_api_<id><secret><checksum>`, the format of secret-tokens.ts, and is shown once. Its
// document holds what the page shows (name, scopes, expiry, last use, revocation, its first and
// last characters); its keyed hash sits apart in api_token_hashes/{id}, which no client reads.
// functions/src/api/api-tokens.ts `verifyApiToken` checks a presented token.
import * as v from 'valibot'
import { API_SCOPES, type ApiScope } from './access.ts'
import { CompanySlugSchema } from './company-admin.ts'
import {
  newTokenFields,
  storedTokenEntries,
  TOKEN_ID_PATTERN,
  tokenFormat,
  tokenStatus,
  type StoredToken,
  type TokenStatus,
} from './secret-tokens.ts'

export const API_TOKENS_COLLECTION = 'api_tokens'
export const API_TOKEN_HASHES_COLLECTION = 'api_token_hashes'

export const apiTokenPath = (id: string) => `${API_TOKENS_COLLECTION}/${id}`
export const apiTokenHashPath = (id: string) => `${API_TOKEN_HASHES_COLLECTION}/${id}`

export const API_TOKEN_PREFIX = 'bwk_api_'
export const apiTokenFormat = tokenFormat(API_TOKEN_PREFIX)

/** Who a token is in the records it leaves (audit events, history, comments, retest requests). */
export const apiTokenActorUid = (id: string) => `api-token:${id}`

export const API_TOKEN_LIMITS = { name: 80, maxExpiryDays: 365 } as const

export const apiScopeLabels: Record<ApiScope, string> = {
  'findings:read': 'Read findings and scans',
  'findings:write': 'Request retests, accept risks and comment on findings',
  'dast:trigger': 'Trigger DAST scans',
}

export const apiTokenMessages = {
  nameRequired: 'Name the token after the tool that uses it.',
  nameTooLong: `A token name has at most ${API_TOKEN_LIMITS.name} characters.`,
  expiry: `A token expires after 1 to ${API_TOKEN_LIMITS.maxExpiryDays} days.`,
  scopesRequired: 'Choose at least one thing the token may do.',
  scope: 'That is not a scope of the API.',
  duplicateScope: 'Each scope appears only once.',
  noToken: 'There is no such API token.',
  expired: 'This API token has expired: create a new one on the API tokens page.',
  revoked: 'This API token was revoked.',
  notSetUp: 'API tokens are not set up on this server (DAST_KEY_SECRET).',
} as const

const TokenIdSchema = v.pipe(v.string(apiTokenMessages.noToken), v.regex(TOKEN_ID_PATTERN, apiTokenMessages.noToken))

export const ApiScopesSchema = v.pipe(
  v.array(v.picklist(API_SCOPES, apiTokenMessages.scope), apiTokenMessages.scopesRequired),
  v.minLength(1, apiTokenMessages.scopesRequired),
  v.check((scopes) => new Set(scopes).size === scopes.length, apiTokenMessages.duplicateScope),
)

export const CreateApiTokenRequestSchema = v.strictObject({
  company: CompanySlugSchema,
  name: v.pipe(
    v.string(apiTokenMessages.nameRequired),
    v.trim(),
    v.minLength(1, apiTokenMessages.nameRequired),
    v.maxLength(API_TOKEN_LIMITS.name, apiTokenMessages.nameTooLong),
  ),
  scopes: ApiScopesSchema,
  expiresInDays: v.pipe(
    v.number(apiTokenMessages.expiry),
    v.integer(apiTokenMessages.expiry),
    v.minValue(1, apiTokenMessages.expiry),
    v.maxValue(API_TOKEN_LIMITS.maxExpiryDays, apiTokenMessages.expiry),
  ),
})
export type CreateApiTokenRequest = v.InferInput<typeof CreateApiTokenRequestSchema>

export const CreateApiTokenResponseSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(TOKEN_ID_PATTERN)),
  token: v.pipe(
    v.string(),
    v.check((token) => apiTokenFormat.parse(token) !== null, 'Expected an API token'),
  ),
})

export const RevokeApiTokenRequestSchema = v.strictObject({ id: TokenIdSchema })
export const RevokeApiTokenResponseSchema = v.strictObject({ revoked: v.boolean() })

/** The stored token document (times as the writer's SDK stores them). */
export const newApiTokenDocument = <Time>(token: Parameters<typeof newTokenFields<Time>>[1] & { scopes: readonly ApiScope[] }) => ({
  ...newTokenFields(API_TOKEN_PREFIX, token),
  scopes: [...token.scopes],
})

const StoredApiTokenSchema = v.object({
  ...storedTokenEntries,
  // A scope this code does not know (a stored one from a later version) grants nothing here.
  scopes: v.optional(
    v.pipe(
      v.array(v.string()),
      v.transform((scopes) => API_SCOPES.filter((scope) => scopes.includes(scope))),
    ),
    [],
  ),
})

export interface ApiToken extends StoredToken {
  scopes: ApiScope[]
}

export function apiTokenFromDocument(id: string, data: unknown): ApiToken | null {
  const parsed = v.safeParse(StoredApiTokenSchema, data ?? {})
  if (!parsed.success) return null
  const token = parsed.output
  return { id, ...token, hint: apiTokenFormat.hint(id, token.last4) }
}

export const apiTokenStatus = (token: Pick<ApiToken, 'revokedAt' | 'expiresAt'>, now: number): TokenStatus => tokenStatus(token, now)
