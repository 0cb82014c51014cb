// vault_keys/{uid}: an analyst's vault key pair (decision 0022). The public key is what colleagues
// seal a shared request's private key to; the private key is stored wrapped under the analyst's
// vault passphrase, bound to their uid, and only they read the document. Written through
// setVaultKey; colleagues get public keys only through vaultTeamKeys, which names the analysts of
// a company's engagement as the server finds them.
import * as v from 'valibot'
import { TimestampSchema } from './stored.ts'
import { LinkIdSchema } from './vault.ts'
import { SealedAnswerSchema, TeamKeySchema, WrappedKeySchema } from './vault-requests.ts'
import { companySlugSchema } from './company-slug.ts'

export const VAULT_KEYS_COLLECTION = 'vault_keys'
export const vaultKeyPath = (uid: string) => `${VAULT_KEYS_COLLECTION}/${uid}`

const PublicKeySchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/, 'Expected an uncompressed P-256 public key'))
const CompanySlug = companySlugSchema('Choose a company')

const StoredVaultKeySchema = v.object({
  publicKey: v.string(),
  wrappedKey: v.object({ ciphertext: v.string(), iv: v.string(), kdf: v.object({ salt: v.string(), iterations: v.number() }) }),
  name: v.optional(v.string(), ''),
  updatedAt: v.optional(v.nullable(TimestampSchema), null),
})

export type StoredVaultKey = v.InferOutput<typeof StoredVaultKeySchema>

export function vaultKeyFromDocument(data: unknown): StoredVaultKey | null {
  const parsed = v.safeParse(StoredVaultKeySchema, data)
  return parsed.success ? parsed.output : null
}

// ---- Callables ----------------------------------------------------------------------------------

/** Publishes (or replaces) the caller's vault key; the private half arrives wrapped. */
export const SetVaultKeyRequestSchema = v.strictObject({ publicKey: PublicKeySchema, wrappedKey: WrappedKeySchema })
export const SetVaultKeyResponseSchema = v.strictObject({ saved: v.literal(true) })

/** The published keys of the other analysts of a company's engagement. */
export const VaultTeamKeysRequestSchema = v.strictObject({ company: CompanySlug })
export const VaultTeamKeysResponseSchema = v.strictObject({
  members: v.array(v.strictObject({ uid: v.string(), name: v.string(), publicKey: PublicKeySchema })),
})
export type VaultTeamMember = v.InferOutput<typeof VaultTeamKeysResponseSchema>['members'][number]

/**
 * The answer of a request and what opens it for the caller: the analyst who asked gets the answer
 * (their wrapped request key is on the request); a colleague also gets the request key sealed to
 * their vault key and the public key it was sealed to. Each call is an opening in the audit trail.
 */
export const OpenVaultRequestRequestSchema = v.strictObject({ id: LinkIdSchema })
export const OpenVaultRequestResponseSchema = v.variant('as', [
  v.strictObject({ as: v.literal('owner'), answer: SealedAnswerSchema }),
  v.strictObject({ as: v.literal('team'), answer: SealedAnswerSchema, teamKey: TeamKeySchema, publicKey: PublicKeySchema }),
])
export type OpenVaultRequestResponse = v.InferOutput<typeof OpenVaultRequestResponseSchema>
