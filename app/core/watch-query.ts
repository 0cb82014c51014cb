// The listener recipe of pages that follow a collection: a Firestore query whose documents the
// collection's module reads (unreadable ones left out). Loaded with the listener modules that use it.
// A list that grows with use is never followed whole: `capped` reads the newest few and says
// whether there are more, `watchPages` adds older pages on demand ("show more"). An empty list or a
// missing document served from the cache alone (the database out of reach) is not an answer: the
// listener waits for the server's, so a page says it is loading, never "none" (cache-snapshots.ts).
import {
  collection,
  doc,
  endAt,
  getCountFromServer,
  limit,
  onSnapshot,
  query,
  startAfter,
  type Query,
  type QueryConstraint,
  type QueryDocumentSnapshot,
} from 'firebase/firestore'
import { unknownYet } from './cache-snapshots'
import { firestore } from './firebase'
import type { Watch } from './live-data'

/**
 * Snapshots that change only their metadata too: the server's answer that confirms an empty list
 * (or a missing document) the cache alone had given changes nothing but `fromCache`, and without
 * these the listener would never hear it and stay loading.
 */
const withServerAnswers = { includeMetadataChanges: true } as const

export const watchQuery =
  <T>(path: string, read: (id: string, data: unknown) => T | null, ...constraints: QueryConstraint[]): Watch<T[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), path), ...constraints),
      withServerAnswers,
      (snapshot) => {
        if (unknownYet(snapshot, snapshot.docs.length === 0)) return
        next(snapshot.docs.map((d) => read(d.id, d.data())).filter((x): x is T => x !== null))
      },
      fail,
    )

/**
 * Follows one document as its collection's module reads it (`data` undefined when it does not
 * exist). Null means the server said there is no such readable document, never the cache alone.
 */
export const watchDocument =
  <T>(path: string, read: (id: string, data: unknown) => T | null): Watch<T | null> =>
  (next, fail) =>
    onSnapshot(
      doc(firestore(), path),
      withServerAnswers,
      (snapshot) => {
        if (unknownYet(snapshot, !snapshot.exists())) return
        next(read(snapshot.id, snapshot.data()))
      },
      fail,
    )

/** The first `shown` of a list, and whether the query holds more beyond them. */
export interface Capped<T> {
  items: T[]
  more: boolean
}

/**
 * Follows the first `shown` values of a query built by `watch` with the limit it is handed: one
 * more than shown is asked for, so the page can say that more exist (and never caps silently).
 */
export const capped =
  <T>(shown: number, watch: (cap: QueryConstraint) => Watch<T[]>): Watch<Capped<T>> =>
  (next, fail) =>
    watch(limit(shown + 1))((values) => next({ items: values.slice(0, shown), more: values.length > shown }), fail)

/** How many documents a query matches, counted on the server (an aggregate: no document is read). */
export const countOf = async (counted: Query): Promise<number> => (await getCountFromServer(counted)).data().count

/** A capped list with the number of all it stands for. */
export interface Counted<T> extends Capped<T> {
  total: number
}

/**
 * A capped list and its total: the list's length while it holds them all, else `count()` asked
 * again on each change of the list (the figure follows the list, never a count of what was loaded).
 */
export const counted =
  <T>(watch: Watch<Capped<T>>, count: () => Promise<number>): Watch<Counted<T>> =>
  (next, fail) => {
    let stopped = false
    let round = 0
    const stop = watch((value) => {
      const mine = ++round
      if (!value.more) return next({ ...value, total: value.items.length })
      count().then(
        (total) => {
          if (!stopped && mine === round) next({ ...value, total: Math.max(total, value.items.length) })
        },
        (error: unknown) => {
          if (!stopped) fail(error instanceof Error ? error : new Error(String(error)))
        },
      )
    }, fail)
    return () => {
      stopped = true
      stop()
    }
  }

/** A list read a page at a time: `more` adds the next page (null when there is none). */
export interface Paged<T> {
  items: T[]
  more: (() => void) | null
  /** The next page is on its way. */
  loading: boolean
}

/**
 * Follows a query (with its order) a page of `pageSize` at a time, live. The last page asks for one
 * more than it shows, to know whether another follows. `more()` pins that page's range between
 * cursors (`startAfter` the page before, `endAt` its last document) and opens the next after it,
 * so an item arriving at the top grows the first page instead of pushing one out of sight.
 */
export const watchPages =
  <T>(path: string, read: (id: string, data: unknown) => T | null, pageSize: number, ...constraints: QueryConstraint[]): Watch<Paged<T>> =>
  (next, fail) => {
    const base = collection(firestore(), path)
    /** `docs`: what the page shows (kept while a pinned page's listener starts); `answered`: its listener has. */
    type Page = { after: QueryDocumentSnapshot | null; docs: QueryDocumentSnapshot[] | null; answered: boolean; stop: () => void }
    const pages: Page[] = []
    let stopped = false

    const listen = (index: number, after: QueryDocumentSnapshot | null, until: QueryDocumentSnapshot | null) => {
      const shown = pages[index]?.docs?.slice(0, pageSize) ?? null
      pages[index]?.stop()
      const page: Page = { after, docs: shown, answered: false, stop: () => {} }
      pages[index] = page
      const range = [...(after ? [startAfter(after)] : []), until ? endAt(until) : limit(pageSize + 1)]
      page.stop = onSnapshot(
        query(base, ...constraints, ...range),
        withServerAnswers,
        (snapshot) => {
          if (unknownYet(snapshot, snapshot.docs.length === 0)) return
          page.docs = snapshot.docs
          page.answered = true
          publish()
        },
        (error) => {
          if (!stopped) fail(error)
        },
      )
    }

    const publish = () => {
      if (stopped) return
      const loading = pages.some((page) => !page.answered)
      if (loading && pages.length === 1) return
      const last = pages.at(-1)!
      const docs = pages.flatMap((page) => (page === last ? (page.docs ?? []).slice(0, pageSize) : (page.docs ?? [])))
      next({
        items: docs.map((d) => read(d.id, d.data({ serverTimestamps: 'estimate' }))).filter((x): x is T => x !== null),
        more: loading || (last.docs?.length ?? 0) > pageSize ? more : null,
        loading,
      })
    }

    const more = () => {
      const index = pages.length - 1
      const last = pages[index]
      if (stopped || !last?.answered || !last.docs || last.docs.length <= pageSize) return
      const end = last.docs[pageSize - 1]!
      listen(index, last.after, end)
      listen(index + 1, end, null)
      publish()
    }

    listen(0, null, null)
    return () => {
      stopped = true
      pages.forEach((page) => page.stop())
    }
  }
