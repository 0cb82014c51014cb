/**
 * styled-components works out a component's CSS (stylis: nesting, prefixes) the first time each new
 * sheet meets its class name, so every server render pays for every component on the page again.
 * A class name stands for the same rules for the life of the code (it is a hash of them), so the
 * isolate keeps the rules it has worked out, and a request's sheet takes them from there.
 */
import type { ServerStyleSheet } from 'styled-components'

type Sheet = ServerStyleSheet['instance']

/** Rules kept at most: components with free-form interpolations could otherwise grow it without end. */
export const KEPT_RULES_MAX = 5_000

const kept = new Map<string, string[]>()
const keyOf = (id: string, name: string) => `${id}\u0000${name}`

/** Makes `sheet` take rules already worked out in this isolate, and keep the ones it works out. */
export function keepStyleRules(sheet: Sheet): void {
  const has = sheet.hasNameForId.bind(sheet)
  const insert = sheet.insertRules.bind(sheet)
  sheet.hasNameForId = (id, name) => {
    if (has(id, name)) return true
    const rules = kept.get(keyOf(id, name))
    if (!rules) return false
    insert(id, name, rules)
    return true
  }
  sheet.insertRules = (id, name, rules) => {
    const key = keyOf(id, name)
    if (!kept.has(key)) {
      if (kept.size >= KEPT_RULES_MAX) kept.delete(kept.keys().next().value!)
      kept.set(key, rules)
    }
    insert(id, name, rules)
  }
}
