// The desk's listeners, loaded with `import()` (Firestore SDK). Every query names one service, as
// the rules answer per service. Each list is capped (a desk, not an archive); the tiles' figures
// are counted on the server whenever a list holds more than it shows.
import { collection, orderBy, query, Timestamp, where } from 'firebase/firestore'
import { findingFromDocument, findingsPath, type Finding } from '#domain/findings.ts'
import { retestFromDocument, retestsPath } from '#domain/retests.ts'
import { scanFromDocument, scansPath, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { combine } from '~/core/combine'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { capped, countOf, counted, watchQuery, type Capped, type Counted } from '~/core/watch-query'
import { DESK_LIMITS, type DeskData, type DeskRetests } from './desk-data'

/** The drafts of the service, the longest waiting first. */
const watchDrafts = (company: string, service: ServiceId): Watch<Counted<Scan>> =>
  counted(
    capped(DESK_LIMITS.drafts, (cap) =>
      watchQuery(
        scansPath(company),
        scanFromDocument,
        where('service', '==', service),
        where('state', '==', 'draft'),
        orderBy('startedAt'),
        cap,
      ),
    ),
    () => countOf(query(collection(firestore(), scansPath(company)), where('service', '==', service), where('state', '==', 'draft'))),
  )

const watchRecentScans = (company: string, service: ServiceId): Watch<Capped<Scan>> =>
  capped(DESK_LIMITS.scans, (cap) =>
    watchQuery(scansPath(company), scanFromDocument, where('service', '==', service), orderBy('startedAt', 'desc'), cap),
  )

/**
 * The retests clients asked for, the soonest due first, with how many wait and how many are
 * overdue: the overdue ones come first, so they are counted on the server only when every one
 * shown is overdue and more wait.
 */
const watchRequestedRetests =
  (company: string, service: ServiceId): Watch<DeskRetests> =>
  (next, fail) => {
    const requested = () => [where('service', '==', service), where('state', '==', 'requested')] as const
    let stopped = false
    const stop = counted(
      capped(DESK_LIMITS.retests, (cap) => watchQuery(retestsPath(company), retestFromDocument, ...requested(), orderBy('dueAt'), cap)),
      () => countOf(query(collection(firestore(), retestsPath(company)), ...requested())),
    )((value) => {
      const now = Date.now()
      const shownOverdue = value.items.filter((retest) => retest.dueAt < now).length
      if (!value.more || shownOverdue < value.items.length) return next({ ...value, overdue: shownOverdue })
      countOf(query(collection(firestore(), retestsPath(company)), ...requested(), where('dueAt', '<', Timestamp.fromMillis(now)))).then(
        (overdue) => !stopped && next({ ...value, overdue }),
        (error: Error) => !stopped && fail(error),
      )
    }, fail)
    return () => {
      stopped = true
      stop()
    }
  }

/** Findings clients dispute, the most recently seen first. */
const watchDisputed = (company: string, service: ServiceId): Watch<Counted<Finding>> =>
  counted(
    capped(DESK_LIMITS.disputed, (cap) =>
      watchQuery(
        findingsPath(company),
        findingFromDocument,
        where('service', '==', service),
        where('status', '==', 'disputed'),
        orderBy('lastSeenAt', 'desc'),
        cap,
      ),
    ),
    () =>
      countOf(query(collection(firestore(), findingsPath(company)), where('service', '==', service), where('status', '==', 'disputed'))),
  )

/** The desk of one company, for the services the analyst may import. */
export const watchDesk = (company: string, services: readonly ServiceId[]): Watch<DeskData> =>
  combine(
    Object.fromEntries(
      services.flatMap((service) => [
        [`drafts:${service}`, watchDrafts(company, service)],
        [`scans:${service}`, watchRecentScans(company, service)],
        [`retests:${service}`, watchRequestedRetests(company, service)],
        [`disputed:${service}`, watchDisputed(company, service)],
      ]),
    ),
    (parts) => ({
      company,
      services: services.map((service) => ({
        service,
        drafts: parts[`drafts:${service}`] as Counted<Scan>,
        scans: parts[`scans:${service}`] as Capped<Scan>,
        retests: parts[`retests:${service}`] as DeskRetests,
        disputed: parts[`disputed:${service}`] as Counted<Finding>,
      })),
    }),
  )
