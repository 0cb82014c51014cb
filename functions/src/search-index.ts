// The search indexes from the functions' side: one admin client of the search service, every
// index's settings applied once per instance, and keeping one record equal to its Firestore
// document, whatever the index (templates, findings).
import { isDeepStrictEqual } from 'node:util'
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import type { DocumentReference, DocumentSnapshot } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { FINDINGS_INDEX_SETTINGS_LIST } from '#domain/findings-search.ts'
import { algoliaHosts, applyIndexSettings, TEMPLATE_INDEX_SETTINGS } from '#domain/template-search.ts'
import { searchAdminKey, searchConfig } from './search-config.ts'

let adminClient: Algoliasearch | undefined
let settingsApplied: Promise<void> | undefined

/** A client with the admin key, every index's settings applied once per instance. */
export async function searchIndexClient(): Promise<Algoliasearch> {
  if (!adminClient) {
    const config = searchConfig(searchAdminKey)
    adminClient = algoliasearch(config.appId, config.apiKey, config.hosts ? { hosts: algoliaHosts(config.hosts, 'readWrite') } : {})
  }
  const client = adminClient
  settingsApplied ??= applyIndexSettings(client, [...TEMPLATE_INDEX_SETTINGS, ...FINDINGS_INDEX_SETTINGS_LIST]).then(
    (changed) => {
      if (changed.length > 0) logger.info('search: index settings applied', { indexes: changed })
    },
    (error: unknown) => {
      settingsApplied = undefined
      throw error
    },
  )
  await settingsApplied
  return client
}

const isNotFound = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 404

async function indexedRecord(client: Algoliasearch, indexName: string, objectID: string): Promise<Record<string, unknown> | null> {
  try {
    return await client.getObject({ indexName, objectID })
  } catch (error) {
    if (isNotFound(error)) return null
    throw error
  }
}

export type IndexSync = 'saved' | 'deleted' | 'unchanged'

/** What a document's record is: null when the index must not hold it (gone, or unreadable). */
export type RecordOf = (snapshot: DocumentSnapshot) => Record<string, unknown> | null

/** Makes the index hold what `snapshot` holds: its record, else nothing. */
async function syncSnapshot(
  client: Algoliasearch,
  indexName: string,
  objectID: string,
  record: Record<string, unknown> | null,
): Promise<IndexSync> {
  const indexed = await indexedRecord(client, indexName, objectID)
  if (!record) {
    if (indexed === null) return 'unchanged'
    const { taskID } = await client.deleteObject({ indexName, objectID })
    await client.waitForTask({ indexName, taskID })
    return 'deleted'
  }
  if (isDeepStrictEqual(indexed, record)) return 'unchanged'
  const { taskID } = await client.saveObject({ indexName, body: record })
  await client.waitForTask({ indexName, taskID })
  return 'saved'
}

const sameVersion = (a: DocumentSnapshot, b: DocumentSnapshot) =>
  a.exists === b.exists && (!a.exists || (a.updateTime !== undefined && b.updateTime !== undefined && a.updateTime.isEqual(b.updateTime)))

const MAX_ROUNDS = 5

/**
 * Brings a record in line with its document's current version, whatever change was announced: a
 * late or repeated event cannot bring back a deleted document or an older version. When the
 * document changes while the index is written, the round is repeated with the newer version.
 */
export async function syncRecord(ref: DocumentReference, indexName: string, objectID: string, recordOf: RecordOf): Promise<IndexSync> {
  const client = await searchIndexClient()
  let snapshot = await ref.get()
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const outcome = await syncSnapshot(client, indexName, objectID, recordOf(snapshot))
    const after = await ref.get()
    if (sameVersion(snapshot, after)) return outcome
    snapshot = after
  }
  throw new Error(`${ref.path} kept changing while its search record was written`)
}
