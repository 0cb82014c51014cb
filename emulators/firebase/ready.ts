// Readiness of the running emulators, probed over HTTP.
import { EMULATOR_HOST, EMULATOR_PORTS, EMULATORS } from './env.ts'

type EmulatorName = (typeof EMULATORS)[number]

async function responds(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) })
    await response.body?.cancel()
    return true
  } catch {
    return false
  }
}

// Which of the emulators answer on their ports right now.
export async function runningEmulators(): Promise<EmulatorName[]> {
  const checks = await Promise.all(
    EMULATORS.map(async (name) => [name, await responds(`http://${EMULATOR_HOST}:${EMULATOR_PORTS[name]}/`)] as const),
  )
  return checks.filter(([, up]) => up).map(([name]) => name)
}

// Resolves once auth, firestore and functions all answer; rejects after `timeoutMs`.
export async function waitForEmulators(options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  for (;;) {
    const up = await runningEmulators()
    if (up.length === EMULATORS.length) return
    if (Date.now() > deadline) {
      const missing = EMULATORS.filter((name) => !up.includes(name))
      throw new Error(`Firebase emulators not reachable on ${EMULATOR_HOST}: ${missing.join(', ')}`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250))
  }
}
