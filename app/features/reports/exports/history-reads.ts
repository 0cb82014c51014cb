// The status histories of the exported findings, read once for the JSON export. Loaded with
// `import()` (Firestore SDK). A finding's history is a small subcollection: a few reads run at
// once, so thousands of findings do not open thousands of requests together.
import { collection, getDocs, orderBy, query } from 'firebase/firestore'
import { findingHistoryPath, historyFromDocument, type FindingHistoryEntry } from '#domain/finding-history.ts'
import { firestore } from '~/core/firebase'

const AT_ONCE = 12

export async function readHistories(company: string, ids: readonly string[]): Promise<Map<string, FindingHistoryEntry[]>> {
  const out = new Map<string, FindingHistoryEntry[]>()
  let next = 0
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!
      const snapshot = await getDocs(query(collection(firestore(), findingHistoryPath(company, id)), orderBy('at', 'asc')))
      out.set(
        id,
        snapshot.docs.map((d) => historyFromDocument(d.id, d.data())).filter((entry): entry is FindingHistoryEntry => entry !== null),
      )
    }
  }
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker))
  return out
}
