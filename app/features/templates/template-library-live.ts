// Live reads of the template library straight from Firestore: one template for the editor, the
// latest ones when the search service cannot be reached, the tags with their counts, and the
// whole library for an export. Loaded with `import()` (it brings the Firebase SDK).
import { collection, doc, getDocs, limit, onSnapshot, orderBy, query } from 'firebase/firestore'
import * as v from 'valibot'
import type { FindingTemplate } from '#domain/finding-template.ts'
import { TAGS_COLLECTION, templateFromDocument, TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import { firestore } from '~/core/firebase'


export { firestore as libraryFirestore }

/** How many templates the plain listing shows when search is down. */
export const LISTING_LIMIT = 100

const readable = (docs: { id: string; data(): unknown }[]): FindingTemplate[] =>
  docs.flatMap((d) => {
    const parsed = templateFromDocument(d.id, d.data())
    return parsed.ok ? [parsed.template] : []
  })

/** Follows one template; `null` once it is known not to exist (or no longer to). */
export function watchTemplate(slug: string, onChange: (template: FindingTemplate | null) => void, onError: (error: Error) => void): () => void {
  return onSnapshot(
    doc(firestore(), TEMPLATES_COLLECTION, slug),
    (snapshot) => {
      if (!snapshot.exists()) return onChange(null)
      const parsed = templateFromDocument(slug, snapshot.data())
      // A document mid-write (server timestamps still pending) reads as not yet valid: wait for the next.
      if (parsed.ok) onChange(parsed.template)
    },
    onError,
  )
}

/** Follows the most recently edited templates. */
export function watchLatestTemplates(onChange: (templates: FindingTemplate[]) => void, onError: (error: Error) => void): () => void {
  return onSnapshot(
    query(collection(firestore(), TEMPLATES_COLLECTION), orderBy('updatedAt', 'desc'), limit(LISTING_LIMIT)),
    (snapshot) => onChange(readable(snapshot.docs)),
    onError,
  )
}

export interface TagCount {
  tag: string
  count: number
}

const TagCounterSchema = v.object({ tagCount: v.number() })

/** Follows every tag in use with its count, most used first (the suggestions of the tag field). */
export function watchTagCounts(onChange: (tags: TagCount[]) => void, onError: (error: Error) => void): () => void {
  return onSnapshot(
    collection(firestore(), TAGS_COLLECTION),
    (snapshot) =>
      onChange(
        snapshot.docs
          .flatMap((d) => {
            const parsed = v.safeParse(TagCounterSchema, d.data())
            return parsed.success && parsed.output.tagCount > 0 ? [{ tag: d.id, count: parsed.output.tagCount }] : []
          })
          .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag)),
      ),
    onError,
  )
}

/** Every template, for an export. */
export async function readWholeLibrary(): Promise<FindingTemplate[]> {
  const snapshot = await getDocs(query(collection(firestore(), TEMPLATES_COLLECTION), orderBy('title')))
  return readable(snapshot.docs)
}
