// The emulator hub can hold back background triggers (Firestore, Auth ...). Holding them back first
// waits for every trigger already running or queued to finish, and drops the events that arrive
// while they are held back. The reports seed holds them back while it writes a year of findings;
// the emulator tests hold them back around a wipe, so no late trigger of an earlier file lands on
// the fresh state.
import { EMULATOR_HOST, EMULATOR_PORTS } from './env.ts'

// Turning them back on must not fail quietly (a busy hub can be slow to answer), or every later
// trigger is lost.
export async function setBackgroundTriggers(enabled: boolean): Promise<void> {
  const hub = process.env.FIREBASE_EMULATOR_HUB ?? `${EMULATOR_HOST}:${EMULATOR_PORTS.hub}`
  const action = enabled ? 'enableBackgroundTriggers' : 'disableBackgroundTriggers'
  const deadline = Date.now() + 120_000
  for (;;) {
    try {
      const response = await fetch(`http://${hub}/functions/${action}`, { method: 'PUT', signal: AbortSignal.timeout(30_000) })
      await response.body?.cancel()
      if (response.ok) return
      throw new Error(`the emulator hub answered ${response.status} to ${action}`)
    } catch (error) {
      // No hub at all (Firestore alone): no triggers to hold back.
      if (error instanceof TypeError && String(error.cause).includes('ECONNREFUSED')) return
      if (Date.now() > deadline) throw error
    }
  }
}

/** Runs `work` with background triggers held back, and turns them on again whatever happens. */
export async function withoutBackgroundTriggers<T>(work: () => Promise<T>): Promise<T> {
  await setBackgroundTriggers(false)
  try {
    return await work()
  } finally {
    await setBackgroundTriggers(true)
  }
}
