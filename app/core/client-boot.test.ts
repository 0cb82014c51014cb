// Runs in Node, as server rendering does: no window.
import { describe, expect, it } from 'vitest'
import { clientBoot } from './client-boot'

describe('clientBoot on the server', () => {
  it('keeps nothing of a request, so no later request can read it', () => {
    const firebase = { projectId: 'demo-sectest', apiKey: 'k', authDomain: 'd', emulators: null, brandColors: { light: null, dark: null } }
    const session = { uid: 'user-a', email: 'a@acme.example', userType: 'client' as const, accessLevel: 1 }
    clientBoot.init({ session, firebase, workspace: null } as Parameters<typeof clientBoot.init>[0])
    expect(() => clientBoot.current()).toThrow(/before the app hydrated/)
  })
})
