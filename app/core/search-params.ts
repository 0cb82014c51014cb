// The address bar's search part, readable: a list is its key repeated (?severity=high&severity=critical)
// rather than JSON. A key given once reads as one value, so a page's schema accepts a single value
// where it expects a list (listParam below). Other values keep the router's reading: JSON where it
// parses (numbers, booleans), the text otherwise.
import * as v from 'valibot'

function readValue(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Text that would read back as something else (a number, "true") is written as JSON. */
function writeValue(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value)
  return readValue(value) === value ? value : JSON.stringify(value)
}

/** The router's `parseSearch`: '?a=1&b=x&b=y' → { a: 1, b: ['x', 'y'] }. */
export function parseSearch(search: string): Record<string, unknown> {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)
  const result: Record<string, unknown> = {}
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key)
    result[key] = values.length === 1 ? readValue(values[0]!) : values.map(readValue)
  }
  return result
}

/** The router's `stringifySearch`: lists as repeated keys, nothing for undefined or empty lists. */
export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) params.append(key, writeValue(item))
    else params.append(key, writeValue(value))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * A list in the search part, with at most `max` values of `item`: a key given once is a list of
 * one; numbers read from the address (a tag "2024") become text again. Anything else: no list.
 */
export function listParam<T extends string>(item: v.GenericSchema<string, T>, max = 50) {
  const text = v.pipe(
    v.union([v.string(), v.number()]),
    v.transform((value) => String(value)),
    item,
  )
  return v.fallback(
    v.optional(
      v.pipe(
        v.union([
          v.array(text),
          v.pipe(
            text,
            v.transform((value) => [value]),
          ),
        ]),
        v.maxLength(max),
      ),
    ),
    undefined,
  )
}

/**
 * A same-site link (`/reports/dast?scan=x`) as the router's Link takes it: its path, and its search
 * read as the router reads the address bar, so the page's search validation sees what the link says.
 */
export function linkOf(href: string): { to: string; search: Record<string, unknown> } {
  const url = new URL(href, 'https://same-site.invalid')
  return { to: url.pathname, search: parseSearch(url.search) }
}
