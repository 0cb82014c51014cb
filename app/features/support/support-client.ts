// Sends a support message from the browser. Loaded with `import()` (it brings the Firebase SDK),
// so pages that only show the contact button stay small.
import * as v from 'valibot'
import { SupportResponseSchema, type SupportRequest, type SupportResponse } from '#domain/support.ts'
import { callable } from '~/core/firebase'

export async function sendSupportMessage(request: SupportRequest): Promise<SupportResponse> {
  const call = callable<SupportRequest, unknown>('handleSupportEmail')
  // A malformed answer counts as a failed call, not as a success.
  return v.parse(SupportResponseSchema, (await call(request)).data)
}
