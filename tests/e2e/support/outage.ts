// Real outages of the local stack's parts: the process that listens on a port is stopped (SIGSTOP),
// so the connections it holds hang and new ones get no answer, as with a server gone away; resuming
// it (SIGCONT) brings it back with its data.
import { execFileSync } from 'node:child_process'

function listenerPid(port: number): number {
  const line = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' })
  const pid = /pid=(\d+)/.exec(line)?.[1]
  if (!pid) throw new Error(`Nothing listens on port ${port}`)
  return Number(pid)
}

/** Stops what listens on `port`; the function returned resumes it (call it in a `finally`). */
export function pauseListener(port: number): () => void {
  const pid = listenerPid(port)
  process.kill(pid, 'SIGSTOP')
  let resumed = false
  return () => {
    if (resumed) return
    resumed = true
    process.kill(pid, 'SIGCONT')
  }
}
