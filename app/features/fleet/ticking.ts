// A clock that ticks every `ms`, so health derived from heartbeat ages moves on the page without any write.
import { useEffect, useState } from 'react'

export function useTicking(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}
