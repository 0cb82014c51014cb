// The fleet pages' live data in the browser (loaded with `import()`: Firestore SDK): locations,
// agents and the latest scan jobs, as the functions write them.
import { limit, orderBy } from 'firebase/firestore'
import {
  agentFromDocument,
  AGENTS_COLLECTION,
  locationFromDocument,
  LOCATIONS_COLLECTION,
  type Agent,
  type Location,
} from '#domain/agents.ts'
import { SCAN_JOBS_COLLECTION, scanJobFromDocument, type ScanJob } from '#domain/scan-jobs.ts'
import type { Watch } from '~/core/live-data'
import { collection, onSnapshot, query, type QueryConstraint } from 'firebase/firestore'
import { firestore } from '~/core/firebase'

const watchQuery =
  <T>(path: string, read: (id: string, data: unknown) => T | null, ...constraints: QueryConstraint[]): Watch<T[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), path), ...constraints),
      (snapshot) => next(snapshot.docs.map((d) => read(d.id, d.data())).filter((x): x is T => x !== null)),
      fail,
    )

export const watchLocations = (): Watch<Location[]> => watchQuery(LOCATIONS_COLLECTION, locationFromDocument, orderBy('name'))
export const watchAgents = (): Watch<Agent[]> => watchQuery(AGENTS_COLLECTION, agentFromDocument, orderBy('name'))
export const watchRecentJobs = (): Watch<ScanJob[]> =>
  watchQuery(SCAN_JOBS_COLLECTION, scanJobFromDocument, orderBy('createdAt', 'desc'), limit(50))
