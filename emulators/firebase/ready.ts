// Readiness of the running emulators, probed over HTTP.
import { EMULATOR_HOST, EMULATOR_PORTS, EMULATORS, PROJECT_ID } from './env.ts'

// The functions' region (functions/src/options.ts): callables are addressed under it.
const REGION = 'us-central1'

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

/**
 * Resolves once each callable answers in the callable protocol (a body it refuses is answered with
 * a JSON error): its code is loaded and its worker started, which on a busy machine took over a
 * minute for the first call. Rejects after `timeoutMs`.
 */
export async function warmCallables(names: string[], options: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 180_000)
  const base = `http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}/${PROJECT_ID}/${REGION}`
  const answers = async (name: string): Promise<boolean> => {
    try {
      const response = await fetch(`${base}/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"data":null}',
        signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
      })
      const body = (await response.json().catch(() => null)) as { error?: { status?: unknown }; result?: unknown } | null
      return body !== null && ('result' in body || typeof body.error?.status === 'string')
    } catch {
      return false
    }
  }
  await Promise.all(
    names.map(async (name) => {
      while (!(await answers(name))) {
        if (Date.now() > deadline) throw new Error(`The callable ${name} did not answer on ${base}`)
        await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }),
  )
}
