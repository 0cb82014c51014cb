// syncTemplateSearch: keeps the templates search index equal to finding_templates. Every write of
// a template, whatever it was, syncs that template's record with the document as it is now, so
// events arriving late, twice or out of order leave the right record. A failed sync is retried.
import './options.ts'
import { onDocumentWritten } from 'firebase-functions/v2/firestore'
import * as logger from 'firebase-functions/logger'
import { TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import { adminDb } from './admin.ts'
import { declaredSecrets, searchAdminKey } from './search-config.ts'
import { syncTemplateRecord } from './template-index.ts'

export const syncTemplateSearch = onDocumentWritten(
  { document: `${TEMPLATES_COLLECTION}/{slug}`, retry: true, secrets: declaredSecrets(searchAdminKey) },
  async (event) => {
    const { slug } = event.params
    const outcome = await syncTemplateRecord(adminDb(), slug)
    logger.debug('syncTemplateSearch', { slug, outcome })
  },
)
