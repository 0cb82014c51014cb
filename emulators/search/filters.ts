// Algolia's filter languages: the `filters` expression (`a:x AND (b:y OR b:z) AND NOT c:w AND n > 5`,
// `n:1 TO 9`) and the `facetFilters` / `numericFilters` lists (`[["a:x","a:y"],"b:z"]`).
//
// Every filter is reduced to a conjunction of disjunctions, the only shape Algolia accepts: it
// refuses ORs of ANDs, a NOT in front of a group, and facet and numeric conditions in one OR, so
// the emulator refuses them too and a query that works here works there.

export type NumericOperator = '<' | '<=' | '=' | '!=' | '>=' | '>'

export type Condition =
  | { kind: 'facet'; attribute: string; value: string; negated: boolean }
  | { kind: 'numeric'; attribute: string; operator: NumericOperator; value: number; negated: boolean }
  | { kind: 'range'; attribute: string; from: number; to: number; negated: boolean }

/** Conditions of which at least one must hold. */
export type FilterClause = Condition[]
/** Clauses that must all hold; empty = no filtering. */
export type Filter = FilterClause[]

/** A facetFilters or numericFilters list: strings are ANDed, nested arrays are ORed. */
export type FilterList = string | (string | string[])[]

export class FilterSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FilterSyntaxError'
  }
}

// ---------------------------------------------------------------------------------------------
// `filters` expressions

type Token = { type: 'word'; text: string; quoted: boolean; at: number } | { type: '(' | ')' | ':' | NumericOperator; at: number }

type Node = { type: 'condition'; condition: Condition } | { type: 'and' | 'or'; items: Node[] } | { type: 'not'; item: Node }

const OPERATORS: NumericOperator[] = ['<=', '>=', '!=', '<', '>', '=']
const WORD_END = /[\s():<>=]/

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const char = text[i] ?? ''
    if (/\s/.test(char)) {
      i += 1
      continue
    }
    if (char === '(' || char === ')' || char === ':') {
      tokens.push({ type: char, at: i })
      i += 1
      continue
    }
    const operator = OPERATORS.find((op) => text.startsWith(op, i))
    if (operator) {
      tokens.push({ type: operator, at: i })
      i += operator.length
      continue
    }
    if (char === '"' || char === "'") {
      let value = ''
      let j = i + 1
      while (j < text.length && text[j] !== char) {
        if (text[j] === '\\' && j + 1 < text.length) j += 1
        value += text[j]
        j += 1
      }
      if (j >= text.length) throw new FilterSyntaxError(`filters: unterminated quote at column ${i + 1}`)
      tokens.push({ type: 'word', text: value, quoted: true, at: i })
      i = j + 1
      continue
    }
    let j = i
    while (j < text.length && !WORD_END.test(text[j] ?? '') && !text.startsWith('!=', j)) j += 1
    tokens.push({ type: 'word', text: text.slice(i, j), quoted: false, at: i })
    i = j
  }
  return tokens
}

class ExpressionParser {
  private readonly tokens: Token[]
  private position = 0

  constructor(tokens: Token[]) {
    this.tokens = tokens
  }

  parse(): Node {
    const node = this.parseOr()
    const extra = this.tokens[this.position]
    if (extra) throw this.unexpected(extra)
    return node
  }

  private peek(): Token | undefined {
    return this.tokens[this.position]
  }

  private isKeyword(token: Token | undefined, keyword: string): boolean {
    return token?.type === 'word' && !token.quoted && token.text === keyword
  }

  private unexpected(token: Token | undefined): FilterSyntaxError {
    if (!token) return new FilterSyntaxError('filters: unexpected end of the expression')
    const text = token.type === 'word' ? token.text : token.type
    return new FilterSyntaxError(`filters: unexpected "${text}" at column ${token.at + 1}`)
  }

  private parseOr(): Node {
    return this.parseJoined('OR', 'or', () => this.parseAnd())
  }

  private parseAnd(): Node {
    return this.parseJoined('AND', 'and', () => this.parseUnary())
  }

  /** Operands joined by one keyword; a single operand stands alone. */
  private parseJoined(keyword: 'OR' | 'AND', type: 'or' | 'and', operand: () => Node): Node {
    const items = [operand()]
    while (this.isKeyword(this.peek(), keyword)) {
      this.position += 1
      items.push(operand())
    }
    return items.length === 1 ? (items[0] as Node) : { type, items }
  }

  private parseUnary(): Node {
    const token = this.peek()
    if (this.isKeyword(token, 'NOT')) {
      this.position += 1
      return { type: 'not', item: this.parseUnary() }
    }
    if (token?.type === '(') {
      this.position += 1
      const node = this.parseOr()
      const close = this.peek()
      if (close?.type !== ')') throw this.unexpected(close)
      this.position += 1
      return node
    }
    return { type: 'condition', condition: this.parseCondition() }
  }

  private word(): string {
    const token = this.peek()
    if (token?.type !== 'word') throw this.unexpected(token)
    this.position += 1
    return token.text
  }

  private number(): number {
    const token = this.peek()
    const text = this.word()
    const value = Number(text)
    if (text.trim() === '' || !Number.isFinite(value)) {
      throw new FilterSyntaxError(`filters: "${text}" at column ${(token?.at ?? 0) + 1} is not a number`)
    }
    return value
  }

  private parseCondition(): Condition {
    const attribute = this.word()
    const operator = this.peek()
    if (operator?.type === ':') {
      this.position += 1
      const next = this.tokens[this.position + 1]
      if (this.isKeyword(next, 'TO')) {
        const from = this.number()
        this.position += 1
        return { kind: 'range', attribute, from, to: this.number(), negated: false }
      }
      return { kind: 'facet', attribute, value: this.word(), negated: false }
    }
    if (operator && operator.type !== 'word' && operator.type !== '(' && operator.type !== ')') {
      this.position += 1
      return { kind: 'numeric', attribute, operator: operator.type, value: this.number(), negated: false }
    }
    throw new FilterSyntaxError(`filters: "${attribute}" needs a value: write attribute:value or attribute > number`)
  }
}

function toFilter(node: Node): Filter {
  switch (node.type) {
    case 'condition':
      return [[node.condition]]
    case 'and':
      return node.items.flatMap(toFilter)
    case 'not': {
      const inner = toFilter(node.item)
      const only = inner.length === 1 && inner[0]?.length === 1 ? inner[0][0] : undefined
      if (!only) throw new FilterSyntaxError('filters: NOT applies to one condition, not to a group')
      return [[{ ...only, negated: !only.negated }]]
    }
    case 'or': {
      const clause = node.items.flatMap((item) => {
        const inner = toFilter(item)
        if (inner.length !== 1) {
          throw new FilterSyntaxError('filters: an OR of ANDs is not supported; write (a OR b) AND (c OR d)')
        }
        return inner[0] ?? []
      })
      const numeric = clause.filter((condition) => condition.kind !== 'facet').length
      if (numeric !== 0 && numeric !== clause.length) {
        throw new FilterSyntaxError('filters: facet and numeric conditions cannot be mixed in one OR')
      }
      return [clause]
    }
  }
}

/** Parses Algolia's `filters` parameter; throws FilterSyntaxError with a one-line reason. */
export function parseFilters(text: string): Filter {
  if (text.trim() === '') return []
  return toFilter(new ExpressionParser(tokenize(text)).parse())
}

// ---------------------------------------------------------------------------------------------
// facetFilters / numericFilters lists

/** The list as nested arrays; strings may hold JSON or the legacy `a:x,(b:y,b:z)` form. */
function listGroups(list: FilterList, parameter: string): string[][] {
  if (Array.isArray(list)) return list.map((item) => (Array.isArray(item) ? item : [item]))
  const text = list.trim()
  if (text === '') return []
  if (text.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new FilterSyntaxError(`${parameter}: not a valid JSON array`)
    }
    const valid =
      Array.isArray(parsed) &&
      parsed.every((item) => typeof item === 'string' || (Array.isArray(item) && item.every((inner) => typeof inner === 'string')))
    if (!valid) throw new FilterSyntaxError(`${parameter}: expected an array of strings and arrays of strings`)
    return listGroups(parsed as (string | string[])[], parameter)
  }
  const groups: string[][] = []
  let depth = 0
  let current = ''
  let group: string[] | undefined
  const flush = () => {
    const item = current.trim()
    current = ''
    if (item === '') return
    if (group) group.push(item)
    else groups.push([item])
  }
  for (const char of text) {
    if (char === '(' && depth === 0) {
      depth = 1
      group = []
    } else if (char === ')' && depth === 1) {
      flush()
      depth = 0
      if (group && group.length > 0) groups.push(group)
      group = undefined
    } else if (char === ',') {
      flush()
    } else {
      current += char
    }
  }
  if (depth !== 0) throw new FilterSyntaxError(`${parameter}: unbalanced parentheses`)
  flush()
  return groups
}

function facetCondition(item: string): Condition {
  const colon = item.indexOf(':')
  if (colon <= 0) throw new FilterSyntaxError(`facetFilters: "${item}" is not attribute:value`)
  const attribute = item.slice(0, colon).trim()
  let value = item.slice(colon + 1)
  let negated = false
  if (value.startsWith('-')) {
    negated = true
    value = value.slice(1)
  } else if (value.startsWith('\\-')) {
    value = value.slice(1)
  }
  if (attribute.startsWith('-')) {
    return { kind: 'facet', attribute: attribute.slice(1), value, negated: !negated }
  }
  return { kind: 'facet', attribute, value, negated }
}

function numericCondition(item: string): Condition {
  const parsed = parseFilters(item)
  const condition = parsed.length === 1 && parsed[0]?.length === 1 ? parsed[0][0] : undefined
  if (!condition || condition.kind === 'facet') {
    throw new FilterSyntaxError(`numericFilters: "${item}" is not a numeric condition such as "price > 5" or "price:1 TO 9"`)
  }
  return condition
}

export function parseFacetFilters(list: FilterList): Filter {
  return listGroups(list, 'facetFilters').map((group) => group.map(facetCondition))
}

export function parseNumericFilters(list: FilterList): Filter {
  return listGroups(list, 'numericFilters').map((group) => group.map(numericCondition))
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Every value at a dotted path; arrays on the way (arrays of objects too) are flattened. */
export function valuesAt(record: unknown, path: string): unknown[] {
  // The common case (a top-level attribute) without the walk: filters and facets read it for every record.
  if (!path.includes('.') && record !== null && typeof record === 'object' && !Array.isArray(record)) {
    const value = (record as Record<string, unknown>)[path]
    if (value === undefined || value === null) return []
    if (!Array.isArray(value)) return [value]
    return value.flat(Infinity).filter((item) => item !== undefined && item !== null)
  }
  let current: unknown[] = [record]
  for (const key of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        next.push((value as Record<string, unknown>)[key])
      }
    }
    current = next.flatMap((value) => (Array.isArray(value) ? value.flat(Infinity) : [value]))
  }
  return current.filter((value) => value !== undefined && value !== null)
}

interface FacetValues {
  /** As stored, each once: what facet counts count. */
  values: readonly string[]
  /** Lower-cased: what facet filters compare with. */
  lower: ReadonlySet<string>
  /** The numbers among them: what facet stats add up. */
  numbers: readonly number[]
}

// A record's facet values per attribute, worked out once and kept on the record under a symbol (no
// answer shows it: hits are built from its string-keyed attributes). Every write puts a new record
// object, none is changed in place, so what is kept always describes the record it is on.
const FACET_VALUES = Symbol('facet values')

/** The facet values of `record` at `attribute`. */
export function facetValuesOf(record: object, attribute: string): FacetValues {
  const kept = record as { [FACET_VALUES]?: Map<string, FacetValues> }
  let byAttribute = kept[FACET_VALUES]
  if (!byAttribute) {
    byAttribute = new Map()
    // Not enumerable, so a copy of the record (a partial update spreads it) starts without it.
    Object.defineProperty(record, FACET_VALUES, { value: byAttribute })
  }
  let found = byAttribute.get(attribute)
  if (!found) {
    const all = valuesAt(record, attribute)
    const values = [...new Set(all.flatMap((value) => facetValue(value) ?? []))]
    const numbers = all.filter((value): value is number => typeof value === 'number')
    found = { values, lower: new Set(values.map((value) => value.toLowerCase())), numbers }
    byAttribute.set(attribute, found)
  }
  return found
}

/** The facet value Algolia derives from an attribute value, or undefined for objects. */
export function facetValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'boolean') return value ? 1 : 0
  return undefined
}

function compare(left: number, operator: NumericOperator, right: number): boolean {
  switch (operator) {
    case '<':
      return left < right
    case '<=':
      return left <= right
    case '=':
      return left === right
    case '!=':
      return left !== right
    case '>=':
      return left >= right
    case '>':
      return left > right
  }
}

function holds(record: object, condition: Condition, canFilterOn: (attribute: string) => boolean): boolean {
  switch (condition.kind) {
    case 'facet':
      // Algolia only filters on declared facets: anything else matches nothing
      if (!canFilterOn(condition.attribute)) return false
      return facetValuesOf(record, condition.attribute).lower.has(condition.value.toLowerCase())
    case 'numeric':
      return valuesAt(record, condition.attribute).some((value) => {
        const number = numericValue(value)
        return number !== undefined && compare(number, condition.operator, condition.value)
      })
    case 'range':
      return valuesAt(record, condition.attribute).some((value) => {
        const number = numericValue(value)
        return number !== undefined && number >= condition.from && number <= condition.to
      })
  }
}

export function matchesFilter(record: object, filter: Filter, canFilterOn: (attribute: string) => boolean): boolean {
  return filter.every((clause) => clause.some((condition) => holds(record, condition, canFilterOn) !== condition.negated))
}
