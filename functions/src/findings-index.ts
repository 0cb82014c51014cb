// The findings search index from the functions' side: one finding's record kept equal to its
// Firestore document. Every company's findings share the index; records name their company.
import type { Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { findingFromDocument, findingPath } from '#domain/findings.ts'
import { FINDINGS_INDEX, findingObjectID, findingSearchRecord } from '#domain/findings-search.ts'
import { syncRecord, type IndexSync } from './search-index.ts'

/** The record of a readable finding; an unreadable one is logged and left out of the index. */
export const syncFindingRecord = (db: Firestore, company: string, id: string): Promise<IndexSync> =>
  syncRecord(db.doc(findingPath(company, id)), FINDINGS_INDEX, findingObjectID(company, id), (snapshot) => {
    if (!snapshot.exists) return null
    const finding = findingFromDocument(id, snapshot.data())
    if (finding) return { ...findingSearchRecord(company, finding) }
    logger.error('search: a finding cannot be read, so it is left out of the index', { company, id })
    return null
  })
