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
import { watchQuery } from '~/core/watch-query'

export const watchLocations = (): Watch<Location[]> => watchQuery(LOCATIONS_COLLECTION, locationFromDocument, orderBy('name'))
export const watchAgents = (): Watch<Agent[]> => watchQuery(AGENTS_COLLECTION, agentFromDocument, orderBy('name'))
export const watchRecentJobs = (): Watch<ScanJob[]> =>
  watchQuery(SCAN_JOBS_COLLECTION, scanJobFromDocument, orderBy('createdAt', 'desc'), limit(50))
