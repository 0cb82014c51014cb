// The seeded template library: the demo templates in finding_templates, their tag counters and
// references in finding_tags (the demo reports' findings use the templates: reports/), and the
// search index filled from Firestore directly, so search works as soon as the stack is up (the
// index trigger, firing for the same writes afterwards, finds nothing left to change).
import { isDeepStrictEqual } from 'node:util'
import { Timestamp, type Firestore, type WriteBatch } from 'firebase-admin/firestore'
import type { FindingTemplate } from '#domain/finding-template.ts'
import { searchRecordFromTemplate } from '#domain/template-search-record.ts'
import {
  TAGS_COLLECTION,
  tagCounterPath,
  tagReferencePath,
  templateContentDocument,
  templateFromDocument,
  templatePath,
  TEMPLATES_COLLECTION,
} from '#domain/template-library.ts'
import { applyTemplateIndexSettings, TEMPLATES_INDEX } from '#domain/template-search.ts'
import { searchEmulatorAdmin } from '../search/admin-client.ts'
import type { SearchEmulatorConfig } from '../search/config.ts'
import { DEMO_FINDING_TEMPLATES } from './finding-templates.ts'

/** Who last changed the demo templates, as their files say: the senior analyst. */
export const DEMO_TEMPLATE_EDITOR = 'senior@sectest.example'

/** A demo template's document: the content the import callable writes, stamped as its file says. */
export function demoTemplateDocument(template: FindingTemplate): Record<string, unknown> {
  const { createdAt, updatedAt, updatedBy, ...content } = template
  return {
    ...templateContentDocument(content),
    createdAt: Timestamp.fromMillis(createdAt),
    updatedAt: Timestamp.fromMillis(updatedAt),
    updatedBy,
  }
}

// A batch holds at most 500 writes.
async function commitInBatches(db: Firestore, writes: readonly ((batch: WriteBatch) => void)[]): Promise<void> {
  for (let start = 0; start < writes.length; start += 500) {
    const batch = db.batch()
    for (const write of writes.slice(start, start + 500)) write(batch)
    await batch.commit()
  }
}

/**
 * Writes each document whole where it differs from what is stored. Unchanged ones are left alone:
 * a rerun fires no trigger for them.
 */
async function setWhereChanged(
  db: Firestore,
  documents: readonly (readonly [path: string, data: Record<string, unknown>])[],
): Promise<void> {
  const stored = await db.getAll(...documents.map(([path]) => db.doc(path)))
  const changed = documents.filter(([, data], index) => !isDeepStrictEqual(stored[index]?.data(), data))
  await commitInBatches(
    db,
    changed.map(
      ([path, data]) =>
        (batch: WriteBatch) =>
          batch.set(db.doc(path), data),
    ),
  )
}

export interface LibrarySummary {
  templates: number
  tags: number
}

/**
 * Puts back the demo templates, then rebuilds finding_tags from every template in the
 * library (demo or not), so each count equals its references whatever was edited.
 */
export async function seedTemplateLibrary(db: Firestore): Promise<LibrarySummary> {
  await setWhereChanged(
    db,
    DEMO_FINDING_TEMPLATES.map((template) => [templatePath(template.slug), demoTemplateDocument(template)] as const),
  )

  await db.recursiveDelete(db.collection(TAGS_COLLECTION))
  const slugsByTag = new Map<string, string[]>()
  for (const template of (await db.collection(TEMPLATES_COLLECTION).get()).docs) {
    for (const tag of new Set<unknown>(template.get('tags') ?? [])) {
      if (typeof tag === 'string') slugsByTag.set(tag, [...(slugsByTag.get(tag) ?? []), template.id])
    }
  }
  // Documents arrive in slug order: the last slug of each tag is the same on every run.
  await commitInBatches(
    db,
    [...slugsByTag].flatMap(([tag, slugs]) => [
      (batch: WriteBatch) => batch.set(db.doc(tagCounterPath(tag)), { tagCount: slugs.length, lastSlug: slugs.at(-1) }),
      ...slugs.map((slug) => (batch: WriteBatch) => batch.set(db.doc(tagReferencePath(tag, slug)), { slug })),
    ]),
  )
  return { templates: DEMO_FINDING_TEMPLATES.length, tags: slugsByTag.size }
}

/** Configures the templates index and fills it with every readable template, replacing what it held. */
export async function indexTemplateLibrary(db: Firestore, search: SearchEmulatorConfig): Promise<number> {
  const client = searchEmulatorAdmin(search)
  await applyTemplateIndexSettings(client)
  const records = (await db.collection(TEMPLATES_COLLECTION).get()).docs.flatMap((document) => {
    const stored = templateFromDocument(document.id, document.data())
    return stored.ok ? [searchRecordFromTemplate(stored.template)] : []
  })
  await client.clearObjects({ indexName: TEMPLATES_INDEX })
  // Copied into plain objects: the client takes records as string-keyed maps.
  await client.saveObjects({ indexName: TEMPLATES_INDEX, objects: records.map((record) => ({ ...record })), waitForTasks: true })
  return records.length
}
