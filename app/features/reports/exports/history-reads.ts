// The status histories of the exported findings, read once for the JSON export. Loaded with
// `import()` (Firestore SDK). One collection-group query reads the entries of thirty findings (the
// most an `in` filter names), a few such queries run at once: thousands of findings take a
// hundred-odd reads, not one per finding. The query names the company and the service, as the
// rules ask. Read from the server: an export holds the whole history, never the part a cache has.
import { collectionGroup, getDocsFromServer, query, where } from 'firebase/firestore'
import { FINDING_HISTORY_COLLECTION, historyFromDocument, type FindingHistoryEntry } from '#domain/finding-history.ts'
import type { ServiceId } from '#domain/services.ts'
import { firestore } from '~/core/firebase'
import { withinDeadline } from '~/core/read-deadline'

const IDS_PER_QUERY = 30
const QUERIES_AT_ONCE = 4

/** Each finding's history, oldest first; a finding without entries maps to an empty list. */
export async function readHistories(
  company: string,
  service: ServiceId,
  ids: readonly string[],
): Promise<Map<string, FindingHistoryEntry[]>> {
  const out = new Map<string, FindingHistoryEntry[]>(ids.map((id) => [id, []]))
  const chunks: string[][] = []
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) chunks.push(ids.slice(i, i + IDS_PER_QUERY))
  let next = 0
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!
      const snapshot = await withinDeadline(
        getDocsFromServer(
          query(
            collectionGroup(firestore(), FINDING_HISTORY_COLLECTION),
            where('company', '==', company),
            where('service', '==', service),
            where('findingId', 'in', chunk),
          ),
        ),
      )
      for (const d of snapshot.docs) {
        const entry = historyFromDocument(d.id, d.data())
        if (entry?.findingId) out.get(entry.findingId)?.push(entry)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(QUERIES_AT_ONCE, chunks.length) }, worker))
  for (const entries of out.values()) entries.sort((a, b) => a.at - b.at)
  return out
}
