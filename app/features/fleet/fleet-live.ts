// The fleet pages' live data in the browser (loaded with `import()`: Firestore SDK): locations
// and agents, as the functions write them.
import { orderBy } from 'firebase/firestore'
import {
  agentFromDocument,
  AGENTS_COLLECTION,
  locationFromDocument,
  LOCATIONS_COLLECTION,
  type Agent,
  type Location,
} from '#domain/agents.ts'
import type { Watch } from '~/core/live-data'
import { watchQuery } from '~/core/watch-query'

export const watchLocations = (): Watch<Location[]> => watchQuery(LOCATIONS_COLLECTION, locationFromDocument, orderBy('name'))
export const watchAgents = (): Watch<Agent[]> => watchQuery(AGENTS_COLLECTION, agentFromDocument, orderBy('name'))
