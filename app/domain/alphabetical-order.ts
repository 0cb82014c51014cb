// Alphabetical order as numbers, for the search indexes: the search service sorts by numbers and
// booleans only (a string in a ranking orders nothing), so a text sorted A to Z is sent as three
// numbers next to it. The findings and the templates indexes use it alike.

/** Characters per number of an alphabetical order key: 38 symbols, and 38^10 stays below 2^53. */
const ORDER_CHARS = 10

/**
 * `text` as three numbers that sort as it does alphabetically, exactly on its first 30 characters
 * (case and accents ignored; characters other than letters and digits sort before them).
 */
export function alphabeticalOrder(text: string): [number, number, number] {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  const parts: [number, number, number] = [0, 0, 0]
  for (let part = 0; part < parts.length; part += 1) {
    let value = 0
    for (let i = 0; i < ORDER_CHARS; i += 1) {
      const char = folded[part * ORDER_CHARS + i]
      const code = char === undefined ? 0 : /[0-9]/.test(char) ? 2 + Number(char) : /[a-z]/.test(char) ? 12 + char.charCodeAt(0) - 97 : 1
      value = value * 38 + code
    }
    parts[part] = value
  }
  return parts
}

export type AlphabeticalOrderFields<A extends string> = Record<`${A}Order${0 | 1 | 2}`, number>

/** The record fields that carry `text`'s order for `attribute`: `titleOrder0` … `titleOrder2`. */
export function alphabeticalOrderFields<A extends string>(attribute: A, text: string): AlphabeticalOrderFields<A> {
  const [a, b, c] = alphabeticalOrder(text)
  return { [`${attribute}Order0`]: a, [`${attribute}Order1`]: b, [`${attribute}Order2`]: c } as AlphabeticalOrderFields<A>
}

/** The names of those fields, in the order a ranking compares them. */
export const alphabeticalOrderKeys = <A extends string>(attribute: A): `${A}Order${0 | 1 | 2}`[] => [
  `${attribute}Order0`,
  `${attribute}Order1`,
  `${attribute}Order2`,
]
