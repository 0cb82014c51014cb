// Asks the database's host, at an interval, whether it answers at all. Any answer counts (the
// request is opaque, costs no database read and needs no credentials); none within the timeout is
// an outage. A socket that accepts and then says nothing, as a stopped server's does, is caught too,
// which a streaming SDK may not notice for minutes.

export interface HostProbeOptions {
  /** The origin to ask, e.g. https://firestore.googleapis.com */
  origin: string
  /** Told after every probe whose answer differs from the last one's. */
  onChange: (reached: boolean) => void
  intervalMs?: number
  timeoutMs?: number
  /** Whether to probe now (a hidden page or an offline browser need not). */
  shouldProbe?: () => boolean
}

export const HOST_PROBE_INTERVAL_MS = 15_000
export const HOST_PROBE_TIMEOUT_MS = 5_000

export async function hostAnswers(origin: string, timeoutMs = HOST_PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    await fetch(`${origin}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(timeoutMs) })
    return true
  } catch {
    return false
  }
}

/** Probes until stopped: at once, then every interval after the previous answer. */
export function watchHostReach({
  origin,
  onChange,
  intervalMs = HOST_PROBE_INTERVAL_MS,
  timeoutMs = HOST_PROBE_TIMEOUT_MS,
  shouldProbe = () => true,
}: HostProbeOptions): () => void {
  let stopped = false
  let last = true
  let timer: ReturnType<typeof setTimeout> | undefined
  const probe = async () => {
    if (shouldProbe()) {
      const reached = await hostAnswers(origin, timeoutMs)
      if (stopped) return
      if (reached !== last) {
        last = reached
        onChange(reached)
      }
    }
    if (!stopped) timer = setTimeout(probe, intervalMs)
  }
  void probe()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
