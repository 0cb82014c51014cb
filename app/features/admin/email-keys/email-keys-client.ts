// The email key callables. Loaded with `import()` (Firebase SDK).
import type { CreateEmailKeyRequest } from '#domain/email-keys.ts'
import { call } from '~/core/call'

export const createEmailKey = (request: CreateEmailKeyRequest) => call('createEmailKey', request)
export const revokeEmailKey = (id: string) => call('revokeEmailKey', { id })
