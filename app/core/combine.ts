import type { Watch } from '~/core/live-data'

type Values<W extends Record<string, Watch<unknown>>> = { [K in keyof W]: W[K] extends Watch<infer T> ? T : never }

/**
 * One listener from several: the first value comes once every part has given one, then each
 * change of any part gives a new value. The first failure stops them all.
 */
export function combine<W extends Record<string, Watch<unknown>>, T>(parts: W, join: (values: Values<W>) => T): Watch<T> {
  return (next, fail) => {
    const keys = Object.keys(parts) as (keyof W)[]
    const values: Partial<Values<W>> = {}
    const arrived = new Set<keyof W>()
    let stopped = false
    const stops: (() => void)[] = []
    const stopAll = () => {
      stopped = true
      stops.forEach((stop) => stop())
    }
    if (keys.length === 0) next(join({} as Values<W>))
    for (const key of keys) {
      stops.push(
        parts[key]!(
          (value) => {
            if (stopped) return
            values[key] = value as Values<W>[typeof key]
            arrived.add(key)
            if (arrived.size === keys.length) next(join(values as Values<W>))
          },
          (error) => {
            if (stopped) return
            stopAll()
            fail(error)
          },
        ),
      )
    }
    return stopAll
  }
}
