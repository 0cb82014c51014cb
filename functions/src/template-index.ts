// The templates search index from the functions' side: one template's record kept equal to its
// Firestore document (objectID = slug).
import type { Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { templateIssuesMessage } from '#domain/finding-template.ts'
import { searchRecordFromTemplate } from '#domain/template-search-record.ts'
import { templateFromDocument, templatePath } from '#domain/template-library.ts'
import { TEMPLATES_INDEX } from '#domain/template-search.ts'
import { syncRecord, type IndexSync } from './search-index.ts'

/** The record of a readable template; an unreadable one is logged and left out of the index. */
export const syncTemplateRecord = (db: Firestore, slug: string): Promise<IndexSync> =>
  syncRecord(db.doc(templatePath(slug)), TEMPLATES_INDEX, slug, (snapshot) => {
    if (!snapshot.exists) return null
    const stored = templateFromDocument(slug, snapshot.data())
    if (stored.ok) return { ...searchRecordFromTemplate(stored.template) }
    logger.error('search: a template cannot be read, so it is left out of the index', {
      slug,
      problem: templateIssuesMessage(stored.issues),
    })
    return null
  })
