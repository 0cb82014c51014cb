// Live reads of the template library straight from Firestore: one template for the editor, the
// latest ones when the search service cannot be reached, the tags with their counts, and the
// whole library for an export. Loaded with `import()` (it brings the Firebase SDK).
import { collection, doc, getCountFromServer, getDocsFromServer, limit, onSnapshot, orderBy, query } from 'firebase/firestore'
import * as v from 'valibot'
import type { FindingTemplate } from '#domain/finding-template.ts'
import { TAGS_COLLECTION, templateFromDocument, templatePath, TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { unknownYet } from '~/core/cache-snapshots'
import { withinDeadline } from '~/core/read-deadline'

export { firestore as libraryFirestore }

/** How many templates the plain listing shows when search is down. */
export const LISTING_LIMIT = 100

const readable = (docs: { id: string; data(): unknown }[]): FindingTemplate[] =>
  docs.flatMap((d) => {
    const parsed = templateFromDocument(d.id, d.data())
    return parsed.ok ? [parsed.template] : []
  })

/**
 * Follows one template; `null` once the server says it does not exist (or no longer does): a
 * template missing from the cache alone, the database out of reach, is unknown (the page loads).
 */
export const watchTemplate =
  (slug: string): Watch<FindingTemplate | null> =>
  (next, fail) =>
    onSnapshot(
      doc(firestore(), templatePath(slug)),
      // The server's confirmation of what the cache alone said changes only the metadata.
      { includeMetadataChanges: true },
      (snapshot) => {
        if (unknownYet(snapshot, !snapshot.exists())) return
        if (!snapshot.exists()) return next(null)
        const parsed = templateFromDocument(slug, snapshot.data())
        // A document mid-write (server timestamps still pending) reads as not yet valid: wait for the next.
        if (parsed.ok) next(parsed.template)
      },
      fail,
    )

/** Follows the most recently edited templates. */
export const watchLatestTemplates = (): Watch<FindingTemplate[]> => (next, fail) =>
  onSnapshot(
    query(collection(firestore(), TEMPLATES_COLLECTION), orderBy('updatedAt', 'desc'), limit(LISTING_LIMIT)),
    { includeMetadataChanges: true },
    (snapshot) => {
      if (!unknownYet(snapshot, snapshot.empty)) next(readable(snapshot.docs))
    },
    fail,
  )

export interface TagCount {
  tag: string
  count: number
}

const TagCounterSchema = v.object({ tagCount: v.number() })

/** Follows every tag in use with its count, most used first (the suggestions of the tag field). */
export const watchTagCounts = (): Watch<TagCount[]> => (next, fail) =>
  onSnapshot(
    collection(firestore(), TAGS_COLLECTION),
    { includeMetadataChanges: true },
    (snapshot) => {
      if (unknownYet(snapshot, snapshot.empty)) return
      next(
        snapshot.docs
          .flatMap((d) => {
            const parsed = v.safeParse(TagCounterSchema, d.data())
            return parsed.success && parsed.output.tagCount > 0 ? [{ tag: d.id, count: parsed.output.tagCount }] : []
          })
          .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag)),
      )
    },
    fail,
  )

/** Every template, for an export: from the server, never the part the cache holds. */
export async function readWholeLibrary(): Promise<FindingTemplate[]> {
  const snapshot = await withinDeadline(getDocsFromServer(query(collection(firestore(), TEMPLATES_COLLECTION), orderBy('title'))))
  return readable(snapshot.docs)
}

/** How many finding templates the library holds, counted on the server (the templates hub's figure). */
export const watchTemplateCount = (): Watch<number> => (next, fail) => {
  let stopped = false
  getCountFromServer(collection(firestore(), TEMPLATES_COLLECTION))
    .then((snapshot) => !stopped && next(snapshot.data().count))
    .catch((error: unknown) => !stopped && fail(error instanceof Error ? error : new Error(String(error))))
  return () => {
    stopped = true
  }
}
