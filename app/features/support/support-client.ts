// Sends a support message from the browser. Loaded with `import()` (it brings the Firebase SDK),
// so pages that only show the contact button stay small.
import { httpsCallable } from 'firebase/functions'
import * as v from 'valibot'
import { SupportResponseSchema, type SupportRequest, type SupportResponse } from '~/domain/support.ts'
import { firebaseClient } from '~/lib/firebase'
import { clientBoot } from '~/features/session/client-boot'

/** The spec's callable timeout. */
const CALL_TIMEOUT_MS = 70_000

export async function sendSupportMessage(request: SupportRequest): Promise<SupportResponse> {
  const { functions } = firebaseClient(clientBoot.current().firebase)
  const call = httpsCallable<SupportRequest, unknown>(functions, 'handleSupportEmail', { timeout: CALL_TIMEOUT_MS })
  // A malformed answer counts as a failed call, not as a success.
  return v.parse(SupportResponseSchema, (await call(request)).data)
}
