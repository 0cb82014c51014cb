// The dashboard's data, live: per service the person may see, the company's activity since their
// last visit and the service's figures; and stamping the visit. Loaded with `import()` (Firestore SDK).
import {
  collection,
  doc,
  limit,
  onSnapshot,
  orderBy,
  query,
  serverTimestamp,
  setDoc,
  Timestamp,
  where,
  type Unsubscribe,
} from 'firebase/firestore'
import { companyActivityFromDocument, companyActivityPath, type CompanyActivity } from '#domain/company-activity.ts'
import { readServiceStats, serviceStatsPath, type ServiceStats } from '#domain/service-stats.ts'
import type { ServiceId } from '#domain/services.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { unknownYet } from '~/core/cache-snapshots'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import type { Session } from '~/core/session'
import { SINCE_LIMIT } from './dashboard-lines'

export interface DashboardData {
  activity: CompanyActivity[]
  stats: Partial<Record<ServiceId, ServiceStats>>
  /** Services with more changes since the last visit than are summed (the page says so). */
  capped?: ServiceId[]
}

/** Per service: everything since the last visit up to SINCE_LIMIT; the latest few on a first visit. */
const FIRST_VISIT_LIMIT = 5

/**
 * Nothing and zeros only from the server: an empty answer of the cache alone (the database out of
 * reach) is unknown, and the server's confirmation of it changes only the snapshot's metadata.
 */
const withServerAnswers = { includeMetadataChanges: true } as const

/**
 * One query per service (the rules let a reader list a service's activity only by naming it),
 * published once every listener has answered.
 */
export const watchDashboard =
  (company: string, serviceIds: readonly ServiceId[], since: number | null): Watch<DashboardData> =>
  (next, fail) => {
    const db = firestore()
    const activity = new Map<ServiceId, CompanyActivity[]>()
    const capped = new Set<ServiceId>()
    const stats: Partial<Record<ServiceId, ServiceStats>> = {}
    const answered = new Set<string>()
    const expected = serviceIds.length * 2
    const publish = () => {
      if (answered.size < expected) return
      next({
        activity: [...activity.values()].flat().sort((a, b) => b.at - a.at),
        stats: { ...stats },
        capped: serviceIds.filter((service) => capped.has(service)),
      })
    }
    const stops: Unsubscribe[] = serviceIds.flatMap((service) => [
      onSnapshot(
        query(
          collection(db, companyActivityPath(company)),
          where('service', '==', service),
          ...(since === null ? [] : [where('at', '>', Timestamp.fromMillis(since))]),
          orderBy('at', 'desc'),
          // One more than summed since the last visit: it tells that more happened.
          limit(since === null ? FIRST_VISIT_LIMIT : SINCE_LIMIT + 1),
        ),
        withServerAnswers,
        (snapshot) => {
          if (unknownYet(snapshot, snapshot.empty)) return
          const docs = since === null ? snapshot.docs : snapshot.docs.slice(0, SINCE_LIMIT)
          activity.set(
            service,
            docs.flatMap((d) => companyActivityFromDocument(d.id, d.data()) ?? []),
          )
          if (since !== null && snapshot.size > SINCE_LIMIT) capped.add(service)
          else capped.delete(service)
          answered.add(`a:${service}`)
          publish()
        },
        fail,
      ),
      onSnapshot(
        doc(db, serviceStatsPath(company, service)),
        withServerAnswers,
        (snapshot) => {
          if (unknownYet(snapshot, !snapshot.exists())) return
          stats[service] = readServiceStats(snapshot.data())
          answered.add(`s:${service}`)
          publish()
        },
        fail,
      ),
    ])
    if (expected === 0) next({ activity: [], stats: {} })
    return () => stops.forEach((stop) => stop())
  }

/** Stamps this visit: the next dashboard shows what came after now. */
export async function markVisited(session: Session): Promise<void> {
  await setDoc(
    doc(firestore(), userPreferencesPath(session.uid)),
    { lastVisitAt: serverTimestamp(), updatedAt: serverTimestamp(), updatedBy: session.email },
    { merge: true },
  )
}
