// syncFindingSearch: keeps the findings search index equal to every company's findings. Each
// write syncs that finding's record with the document as it is now; a failed sync is retried.
import './options.ts'
import { onDocumentWritten } from 'firebase-functions/v2/firestore'
import * as logger from 'firebase-functions/logger'
import { COMPANIES_COLLECTION } from '#domain/companies.ts'
import { FINDINGS_COLLECTION } from '#domain/findings.ts'
import { adminDb } from './admin.ts'
import { syncFindingRecord } from './findings-index.ts'
import { declaredSecrets, searchAdminKey } from './search-config.ts'

export const syncFindingSearch = onDocumentWritten(
  { document: `${COMPANIES_COLLECTION}/{company}/${FINDINGS_COLLECTION}/{id}`, retry: true, secrets: declaredSecrets(searchAdminKey) },
  async (event) => {
    const { company, id } = event.params
    const outcome = await syncFindingRecord(adminDb(), company, id)
    logger.debug('syncFindingSearch', { company, id, outcome })
  },
)
