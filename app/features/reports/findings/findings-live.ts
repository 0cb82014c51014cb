// The findings on screen in a service's table, and one finding's record, history, comments, occurrences and retests, live.
// Loaded with `import()` (Firestore SDK). Every query names what the rules let the reader see:
// clients ask only for client comments; the rules refuse them the rest.
import { collection, documentId, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { commentFromDocument, findingCommentsPath, type FindingComment } from '#domain/finding-comments.ts'
import { findingHistoryPath, historyFromDocument, type FindingHistoryEntry } from '#domain/finding-history.ts'
import {
  FINDING_IDS_PER_READ,
  findingFromDocument,
  findingPath,
  findingsPath,
  occurrenceFromDocument,
  occurrencesPath,
  type Finding,
  type FindingOccurrence,
} from '#domain/findings.ts'
import { retestFromDocument, retestsPath, type Retest } from '#domain/retests.ts'
import type { ServiceId } from '#domain/services.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { watchDocument, watchQuery } from '~/core/watch-query'

const present = <T>(value: T | null): value is T => value !== null

/** A list in the order `order` gives, whatever the query's. */
const sorted =
  <T>(watch: Watch<T[]>, order: (a: T, b: T) => number): Watch<T[]> =>
  (next, fail) =>
    watch((values) => next([...values].sort(order)), fail)

/**
 * The findings with these ids (those on screen in the table), as they are now: the table shows a
 * status an analyst just changed before the search index has it. Ids that are not findings of the
 * service are left out.
 */
export const watchFindingsByIds =
  (company: string, service: ServiceId, ids: readonly string[]): Watch<Finding[]> =>
  (next, fail) => {
    const chunks: string[][] = []
    for (let i = 0; i < ids.length; i += FINDING_IDS_PER_READ) chunks.push(ids.slice(i, i + FINDING_IDS_PER_READ))
    // Arrays, not Maps: useLiveData keeps a value equal as plain data, and every Map is.
    const parts: Finding[][] = chunks.map(() => [])
    const arrived = new Set<number>()
    const stops = chunks.map((chunk, i) =>
      onSnapshot(
        // The rules read a list by its service, so the query names it.
        query(collection(firestore(), findingsPath(company)), where('service', '==', service), where(documentId(), 'in', chunk)),
        (snapshot) => {
          parts[i] = snapshot.docs.map((d) => findingFromDocument(d.id, d.data())).filter(present)
          arrived.add(i)
          if (arrived.size === chunks.length) next(parts.flat())
        },
        fail,
      ),
    )
    if (chunks.length === 0) next([])
    return () => stops.forEach((stop) => stop())
  }

/** One finding; null once the server says it does not exist (or it is not a readable finding). */
export const watchFinding = (company: string, id: string): Watch<Finding | null> =>
  watchDocument(findingPath(company, id), findingFromDocument)

/** The finding's changes, newest first. */
export const watchFindingHistory = (company: string, id: string): Watch<FindingHistoryEntry[]> =>
  watchQuery(findingHistoryPath(company, id), historyFromDocument, orderBy('at', 'desc'))

/**
 * The conversation, oldest first. `internal`: the reader also sees analysts-only comments; others
 * ask for client comments only (sorted here, so the query needs no composite index).
 */
export const watchFindingComments = (company: string, id: string, internal: boolean): Watch<FindingComment[]> =>
  sorted(
    watchQuery(findingCommentsPath(company, id), commentFromDocument, ...(internal ? [] : [where('visibility', '==', 'client')])),
    (a, b) => a.createdAt - b.createdAt,
  )

/** The scans that saw the finding, newest first. */
export const watchOccurrences = (company: string, id: string): Watch<FindingOccurrence[]> =>
  sorted(watchQuery(occurrencesPath(company, id), occurrenceFromDocument), (a, b) => b.at - a.at)

/** The retest requests the finding is part of, newest first. */
export const watchFindingRetests = (company: string, service: ServiceId, id: string): Watch<Retest[]> =>
  sorted(
    // The rules read a list by its service, so the query names it.
    watchQuery(retestsPath(company), retestFromDocument, where('service', '==', service), where('findingIds', 'array-contains', id)),
    (a, b) => b.requestedAt - a.requestedAt,
  )
