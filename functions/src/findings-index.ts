// The findings search index from the functions' side: keeping one finding's record equal to its
// Firestore document. Every company's findings share the index; records name their company.
import { isDeepStrictEqual } from 'node:util'
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import type { DocumentSnapshot, Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { findingFromDocument, findingPath } from '#domain/findings.ts'
import { applyFindingsIndexSettings, FINDINGS_INDEX, findingObjectID, findingSearchRecord } from '#domain/findings-search.ts'
import { algoliaHosts } from '#domain/template-search.ts'
import { searchAdminKey, searchConfig } from './search-config.ts'

let adminClient: Algoliasearch | undefined
let settingsApplied: Promise<void> | undefined

async function findingsIndexClient(): Promise<Algoliasearch> {
  if (!adminClient) {
    const config = searchConfig(searchAdminKey)
    adminClient = algoliasearch(config.appId, config.apiKey, config.hosts ? { hosts: algoliaHosts(config.hosts, 'readWrite') } : {})
  }
  const client = adminClient
  settingsApplied ??= applyFindingsIndexSettings(client).then(
    () => undefined,
    (error: unknown) => {
      settingsApplied = undefined
      throw error
    },
  )
  await settingsApplied
  return client
}

const isNotFound = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 404

export type IndexSync = 'saved' | 'deleted' | 'unchanged'

async function syncSnapshot(client: Algoliasearch, company: string, id: string, snapshot: DocumentSnapshot): Promise<IndexSync> {
  const finding = snapshot.exists ? findingFromDocument(id, snapshot.data()) : null
  if (snapshot.exists && !finding) logger.error('search: a finding cannot be read, so it is left out of the index', { company, id })
  const objectID = findingObjectID(company, id)
  const indexed = await client.getObject({ indexName: FINDINGS_INDEX, objectID }).catch((error: unknown) => {
    if (isNotFound(error)) return null
    throw error
  })
  if (!finding) {
    if (indexed === null) return 'unchanged'
    const { taskID } = await client.deleteObject({ indexName: FINDINGS_INDEX, objectID })
    await client.waitForTask({ indexName: FINDINGS_INDEX, taskID })
    return 'deleted'
  }
  const record = findingSearchRecord(company, finding)
  if (isDeepStrictEqual(indexed, record)) return 'unchanged'
  const { taskID } = await client.saveObject({ indexName: FINDINGS_INDEX, body: record })
  await client.waitForTask({ indexName: FINDINGS_INDEX, taskID })
  return 'saved'
}

const sameVersion = (a: DocumentSnapshot, b: DocumentSnapshot) =>
  a.exists === b.exists && (!a.exists || (a.updateTime !== undefined && b.updateTime !== undefined && a.updateTime.isEqual(b.updateTime)))

const MAX_ROUNDS = 5

/**
 * Brings the finding's record in line with its current document, whatever change was announced,
 * so events arriving late, twice or out of order leave the right record.
 */
export async function syncFindingRecord(db: Firestore, company: string, id: string): Promise<IndexSync> {
  const client = await findingsIndexClient()
  const ref = db.doc(findingPath(company, id))
  let snapshot = await ref.get()
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const outcome = await syncSnapshot(client, company, id, snapshot)
    const after = await ref.get()
    if (sameVersion(snapshot, after)) return outcome
    snapshot = after
  }
  throw new Error(`${findingPath(company, id)} kept changing while its search record was written`)
}
