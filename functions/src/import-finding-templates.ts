// importFindingTemplates: reads a JSON or CSV file of templates (template-transfer.ts) into the
// library. The plan is made against the whole library; each template is then written in a
// transaction of its own with its tag changes, so concurrent edits cannot make a count drift.
import { FieldValue, type Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { HttpsError } from 'firebase-functions/v2/https'
import { templateIssuesMessage, type FindingTemplate, type TemplateInput } from '#domain/finding-template.ts'
import { storedTags, templateContentDocument, templateFromDocument, templatePath, TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import type { TemplateImportRow } from '#domain/template-library-calls.ts'
import { planTemplateImport } from '#domain/template-transfer.ts'
import { adminDb } from './admin.ts'
import { defineCallable } from './define-callable.ts'
import { declaredSecrets, searchAdminKey } from './search-config.ts'
import { syncTemplateRecord } from './template-index.ts'
import { prepareTagChanges } from './template-tags.ts'

/** Every template that can be read; others are logged and left to the import to replace. */
async function readLibrary(db: Firestore): Promise<FindingTemplate[]> {
  const snapshot = await db.collection(TEMPLATES_COLLECTION).get()
  return snapshot.docs.flatMap((document) => {
    const stored = templateFromDocument(document.id, document.data())
    if (stored.ok) return [stored.template]
    logger.warn('importFindingTemplates: a template cannot be read', { slug: document.id, problem: templateIssuesMessage(stored.issues) })
    return []
  })
}

async function writeTemplate(db: Firestore, template: TemplateInput, editor: string): Promise<void> {
  const ref = db.doc(templatePath(template.slug))
  await db.runTransaction(async (transaction) => {
    const current = await transaction.get(ref)
    const writeTagChanges = await prepareTagChanges(db, transaction, template.slug, storedTags(current.data()), template.tags)
    transaction.set(ref, {
      ...templateContentDocument(template),
      createdAt: current.get('createdAt') ?? FieldValue.serverTimestamp(),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: editor,
    })
    writeTagChanges()
  })
}

const NOT_SAVED = 'The template could not be saved: import the file again'

export const importFindingTemplates = defineCallable(
  'importFindingTemplates',
  // A file of thousands of templates is thousands of transactions.
  { timeoutSeconds: 540, memory: '512MiB', secrets: declaredSecrets(searchAdminKey) },
  async (caller, { fileName, text }) => {
    const db = adminDb()
    const plan = planTemplateImport({ name: fileName, text }, await readLibrary(db))
    if (!plan.ok) throw new HttpsError('invalid-argument', plan.error)

    const editor = caller.email ?? caller.uid
    const notSaved = new Set<string>()
    // One after the other: transactions sharing a popular tag's counter would wait on each other.
    for (const { template } of plan.writes) {
      try {
        await writeTemplate(db, template, editor)
      } catch (error) {
        logger.error('importFindingTemplates: a template could not be saved', {
          slug: template.slug,
          error: error instanceof Error ? error.message : String(error),
        })
        notSaved.add(template.slug)
      }
    }
    // Searchable before the answer: the importer's list shows the new templates when it searches
    // again. The index trigger does the same later; syncing twice leaves the same record.
    for (const { template } of plan.writes) {
      if (notSaved.has(template.slug)) continue
      await syncTemplateRecord(db, template.slug).catch((error: unknown) =>
        logger.warn('importFindingTemplates: the search index is left to its trigger', {
          slug: template.slug,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
    }
    const rows = plan.rows.map((row): TemplateImportRow =>
      row.slug !== null && notSaved.has(row.slug) && (row.outcome === 'created' || row.outcome === 'updated')
        ? { ...row, outcome: 'refused', reason: NOT_SAVED }
        : row,
    )
    logger.info('importFindingTemplates: imported', {
      fileName,
      format: plan.format,
      rows: rows.length,
      writes: plan.writes.length - notSaved.size,
    })
    return { success: true, rows }
  },
)
