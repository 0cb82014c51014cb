// The templates search index from the functions' side: an admin client of the search service and
// keeping one template's record equal to its Firestore document.
import { isDeepStrictEqual } from 'node:util'
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import type { DocumentSnapshot, Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { searchRecordFromTemplate, templateIssuesMessage } from '#domain/finding-template.ts'
import { templateFromDocument, templatePath } from '#domain/template-library.ts'
import { algoliaHosts, applyTemplateIndexSettings, TEMPLATES_INDEX } from '#domain/template-search.ts'
import { searchAdminKey, searchConfig } from './search-config.ts'

let adminClient: Algoliasearch | undefined
let settingsApplied: Promise<void> | undefined

/** A client with the admin key, the index settings applied once per instance. */
export async function templateIndexClient(): Promise<Algoliasearch> {
  if (!adminClient) {
    const config = searchConfig(searchAdminKey)
    adminClient = algoliasearch(config.appId, config.apiKey, config.hosts ? { hosts: algoliaHosts(config.hosts, 'readWrite') } : {})
  }
  const client = adminClient
  settingsApplied ??= applyTemplateIndexSettings(client).then(
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

async function indexedRecord(client: Algoliasearch, objectID: string): Promise<Record<string, unknown> | null> {
  try {
    return await client.getObject({ indexName: TEMPLATES_INDEX, objectID })
  } catch (error) {
    if (isNotFound(error)) return null
    throw error
  }
}

export type IndexSync = 'saved' | 'deleted' | 'unchanged'

/** Makes the index hold what `snapshot` holds: the record of a readable template, else nothing. */
async function syncSnapshot(client: Algoliasearch, slug: string, snapshot: DocumentSnapshot): Promise<IndexSync> {
  const stored = snapshot.exists ? templateFromDocument(slug, snapshot.data()) : null
  if (stored && !stored.ok) {
    logger.error('search: a template cannot be read, so it is left out of the index', {
      slug,
      problem: templateIssuesMessage(stored.issues),
    })
  }
  const indexed = await indexedRecord(client, slug)
  if (!stored?.ok) {
    if (indexed === null) return 'unchanged'
    const { taskID } = await client.deleteObject({ indexName: TEMPLATES_INDEX, objectID: slug })
    await client.waitForTask({ indexName: TEMPLATES_INDEX, taskID })
    return 'deleted'
  }
  const record = searchRecordFromTemplate(stored.template)
  if (isDeepStrictEqual(indexed, record)) return 'unchanged'
  const { taskID } = await client.saveObject({ indexName: TEMPLATES_INDEX, body: record })
  await client.waitForTask({ indexName: TEMPLATES_INDEX, taskID })
  return 'saved'
}

const sameVersion = (a: DocumentSnapshot, b: DocumentSnapshot) =>
  a.exists === b.exists && (!a.exists || (a.updateTime !== undefined && b.updateTime !== undefined && a.updateTime.isEqual(b.updateTime)))

const MAX_ROUNDS = 5

/**
 * Brings the template's record in line with its current document, whatever change was announced:
 * a late or repeated event cannot bring back a deleted template or an older version. When the
 * document changes while the index is written, the round is repeated with the newer version.
 */
export async function syncTemplateRecord(db: Firestore, slug: string): Promise<IndexSync> {
  const client = await templateIndexClient()
  const ref = db.doc(templatePath(slug))
  let snapshot = await ref.get()
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const outcome = await syncSnapshot(client, slug, snapshot)
    const after = await ref.get()
    if (sameVersion(snapshot, after)) return outcome
    snapshot = after
  }
  throw new Error(`finding_templates/${slug} kept changing while its search record was written`)
}
