// The records holding each facet value, per attribute: what lets a query over a large index look at
// the records its facet filters allow rather than at every record (Algolia keeps such lists too).
// Built per attribute on first use and kept up to date as records are written.
import { facetValuesOf, type Filter } from './filters.ts'

type Records<R> = ReadonlySet<R>

/** The records a filter's plain facet clauses allow; `key` names those clauses (the same key, the same records until a write). */
export interface Allowed<R> {
  records: Records<R>
  /** Those clauses were the whole filter: each of the records passes it. */
  complete: boolean
  key: string
}

/** An attribute's facet values in order, and each one's place in it. */
export interface ValueRanks {
  placeOf: ReadonlyMap<string, number>
  inOrder: readonly string[]
}

/**
 * The `max` values with the highest counts, ties in `ranks`' order: what a facet answers. A large
 * index has tens of thousands of values counted once each, so the ties at the cut are ordered by
 * their places (numbers) and nothing else is sorted in full.
 */
export function topFacetValues(counts: ReadonlyMap<string, number>, max: number, ranks: ValueRanks): [string, number][] {
  if (counts.size <= max) {
    const place = (value: string) => ranks.placeOf.get(value) ?? Number.MAX_SAFE_INTEGER
    return [...counts].sort((a, b) => b[1] - a[1] || place(a[0]) - place(b[0]))
  }
  // The count at the cut: fewer than `max` values count more, at least `max` count as much or more.
  const byCount = new Map<number, number>()
  for (const count of counts.values()) byCount.set(count, (byCount.get(count) ?? 0) + 1)
  let cut = 0
  let above = 0
  for (const count of [...byCount.keys()].sort((a, b) => b - a)) {
    cut = count
    if (above + byCount.get(count)! >= max) break
    above += byCount.get(count)!
  }
  const higher: [string, number][] = []
  const tied: number[] = []
  for (const [value, count] of counts) {
    if (count > cut) higher.push([value, count])
    else if (count === cut) tied.push(ranks.placeOf.get(value) ?? Number.MAX_SAFE_INTEGER)
  }
  const place = (value: string) => ranks.placeOf.get(value) ?? Number.MAX_SAFE_INTEGER
  higher.sort((a, b) => b[1] - a[1] || place(a[0]) - place(b[0]))
  const firstTied = Float64Array.from(tied)
    .sort()
    .slice(0, max - higher.length)
  return [...higher, ...[...firstTied].map((at): [string, number] => [ranks.inOrder[at]!, cut])]
}

export class FacetIndex<R extends object> {
  private readonly byAttribute = new Map<string, Map<string, Set<R>>>()
  private readonly clauses = new Map<string, Records<R>>()
  /** What a whole filter allows, and facet counts over it, by filter: a key's filter repeats until the next write. */
  private readonly answers = new Map<string, unknown>()
  private readonly ranks = new Map<string, ValueRanks>()
  private readonly records: () => Iterable<R>

  constructor(records: () => Iterable<R>) {
    this.records = records
  }

  clear(): void {
    this.byAttribute.clear()
    this.clauses.clear()
    this.answers.clear()
    this.ranks.clear()
  }

  /** `make()`'s value, kept under `key` until the next write. */
  untilWrite<T>(key: string, make: () => T): T {
    if (this.answers.has(key)) return this.answers.get(key) as T
    const value = make()
    this.answers.set(key, value)
    return value
  }

  /**
   * Each facet value of `attribute` (as stored) with its place in `compare`'s order: facet counts
   * break ties by value, and comparing places is what keeps that cheap over many values.
   */
  valueRanks(attribute: string, compare: (a: string, b: string) => number): ValueRanks {
    let ranks = this.ranks.get(attribute)
    if (!ranks) {
      const values = new Set<string>()
      for (const record of this.records()) for (const value of facetValuesOf(record, attribute).values) values.add(value)
      const inOrder = [...values].sort(compare)
      ranks = { placeOf: new Map(inOrder.map((value, place) => [value, place])), inOrder }
      this.ranks.set(attribute, ranks)
    }
    return ranks
  }

  /** A write: `previous` (if any) leaves the lists built so far, `next` (if any) joins them. */
  replace(previous: R | undefined, next: R | undefined): void {
    // What the clauses allowed is worked out again when next asked (a union of lists: quick).
    this.clauses.clear()
    this.answers.clear()
    for (const [attribute, values] of this.byAttribute) {
      if (previous) for (const value of facetValuesOf(previous, attribute).lower) values.get(value)?.delete(previous)
      if (next) {
        for (const value of facetValuesOf(next, attribute).lower) {
          let holders = values.get(value)
          if (!holders) values.set(value, (holders = new Set()))
          holders.add(next)
        }
      }
    }
    // A value never seen before has no place yet: the places are worked out again when next asked.
    if (next) {
      for (const [attribute, ranks] of this.ranks) {
        if (facetValuesOf(next, attribute).values.some((value) => !ranks.placeOf.has(value))) this.ranks.delete(attribute)
      }
    }
  }

  /** Builds the lists of `attribute` ahead of the queries that will need them. */
  prepare(attribute: string): void {
    this.values(attribute)
  }

  private values(attribute: string): Map<string, Set<R>> {
    let values = this.byAttribute.get(attribute)
    if (!values) {
      values = new Map()
      for (const record of this.records()) {
        for (const value of facetValuesOf(record, attribute).lower) {
          let holders = values.get(value)
          if (!holders) values.set(value, (holders = new Set()))
          holders.add(record)
        }
      }
      this.byAttribute.set(attribute, values)
    }
    return values
  }

  /** The records whose `attribute` holds `value` (compared as facet filters compare: lower-cased). */
  withValue(attribute: string, value: string): Records<R> {
    return this.values(attribute).get(value.toLowerCase()) ?? new Set()
  }

  /** The records one clause of plain facet conditions allows (OR), kept until the next write: a key's filter repeats. */
  private clauseRecords(key: string, clause: Filter[number], canFilterOn: (attribute: string) => boolean): Records<R> {
    let records = this.clauses.get(key)
    if (!records) {
      const sets = clause.flatMap((condition) =>
        condition.kind === 'facet' && canFilterOn(condition.attribute) ? [this.withValue(condition.attribute, condition.value)] : [],
      )
      if (sets.length === 1) records = sets[0]!
      else {
        const union = new Set<R>()
        for (const set of sets) for (const record of set) union.add(record)
        records = union
      }
      this.clauses.set(key, records)
    }
    return records
  }

  /**
   * The only records that can pass `filter`, from its clauses of plain facet conditions (OR within
   * a clause, no negation), or null when it has no such clause; `complete` when those were all its
   * clauses, so each of the records passes. Otherwise the whole filter must still be checked on
   * each: its other clauses (numeric, negated) are not looked at here.
   */
  allowedBy(filter: Filter, canFilterOn: (attribute: string) => boolean): Allowed<R> | null {
    const plain = filter.filter((clause) => clause.every((condition) => condition.kind === 'facet' && !condition.negated))
    if (plain.length === 0) return null
    const keys = plain.map((clause) =>
      JSON.stringify(clause.map((condition) => (condition.kind === 'facet' ? [condition.attribute, condition.value.toLowerCase()] : []))),
    )
    const key = `allowed:${JSON.stringify([...keys].sort())}`
    const complete = plain.length === filter.length
    const records = this.untilWrite(key, () => {
      const clauses = plain.map((clause, i) => this.clauseRecords(keys[i]!, clause, canFilterOn)).sort((a, b) => a.size - b.size)
      const [smallest, ...others] = clauses
      if (others.length === 0) return smallest!
      const allowed = new Set<R>()
      for (const record of smallest!) if (others.every((set) => set.has(record))) allowed.add(record)
      return allowed
    })
    return { records, complete, key }
  }
}
