/**
 * Whether two values of plain data (what listeners give: objects, arrays, primitives, dates) are
 * the same. A listener's first value, or a session hand-over's answer, is usually what the page
 * already shows; keeping the state as it is then spares the page a whole re-render.
 */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
  if (a instanceof Date) return a.getTime() === (b as Date).getTime()
  if (Array.isArray(a)) {
    const other = b as unknown[]
    return a.length === other.length && a.every((item, i) => samePlainData(item, other[i]))
  }
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every(
    (key) => Object.hasOwn(b, key) && samePlainData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  )
}
