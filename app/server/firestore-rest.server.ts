// Firestore reads at the edge through the REST API, with the signed-in user's own ID token:
// the security rules apply to the Worker exactly as they do to the browser.
import { decodeFields, firestoreOrigin, FirestoreReadDenied, readRequest, type Plain, type RestValue } from './firestore-rest'
import type { PublicConfig } from '~/core/session'

export interface FirestoreReader {
  /** The document's fields, or null when it does not exist. Throws FirestoreReadDenied on a rules denial. */
  get(path: string): Promise<{ [key: string]: Plain } | null>
  /**
   * Several documents in one round trip (Firestore's batchGet), in the order asked, null for each
   * that does not exist. Throws FirestoreReadDenied when the rules refuse any one of them.
   */
  getAll(paths: readonly string[]): Promise<({ [key: string]: Plain } | null)[]>
  /** Every document of a collection (small collections only), with their ids. */
  list(collection: string): Promise<{ id: string; data: { [key: string]: Plain } }[]>
}

/** A reader as the signed-in user (their ID token), or, with null, as nobody: only rules open to all let it through. */
export function firestoreReader(config: Pick<PublicConfig, 'projectId' | 'emulators'>, idToken: string | null): FirestoreReader {
  const base = `${firestoreOrigin(config)}/v1/projects/${config.projectId}/databases/(default)/documents`
  const name = `projects/${config.projectId}/databases/(default)/documents`
  const call = async (url: string, body?: unknown) => {
    const response = await readRequest(url, {
      ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
      headers: {
        ...(idToken ? { Authorization: `Bearer ${idToken}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      signal: AbortSignal.timeout(5_000),
    })
    if (response.status === 403) throw new FirestoreReadDenied(url)
    return response
  }
  const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/')
  return {
    async get(path) {
      const response = await call(`${base}/${encode(path)}`)
      if (response.status === 404) return null
      if (!response.ok) throw new Error(`Firestore read of ${path} answered ${response.status}`)
      return decodeFields(((await response.json()) as { fields?: Record<string, RestValue> }).fields)
    },
    async getAll(paths) {
      if (paths.length === 0) return []
      const response = await call(`${base}:batchGet`, { documents: paths.map((path) => `${name}/${path}`) })
      if (!response.ok) throw new Error(`Firestore batch read of ${paths.join(', ')} answered ${response.status}`)
      // One entry per document, in no promised order: each names its document, found or missing.
      const entries = (await response.json()) as { found?: { name: string; fields?: Record<string, RestValue> }; missing?: string }[]
      const found = new Map<string, { [key: string]: Plain }>()
      for (const entry of entries) if (entry.found) found.set(entry.found.name.slice(name.length + 1), decodeFields(entry.found.fields))
      return paths.map((path) => found.get(path) ?? null)
    },
    async list(collection) {
      const documents: { id: string; data: { [key: string]: Plain } }[] = []
      let pageToken = ''
      do {
        const response = await call(
          `${base}/${encode(collection)}?pageSize=300${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
        )
        if (!response.ok) throw new Error(`Firestore list of ${collection} answered ${response.status}`)
        const body = (await response.json()) as {
          documents?: { name: string; fields?: Record<string, RestValue> }[]
          nextPageToken?: string
        }
        for (const doc of body.documents ?? [])
          documents.push({ id: doc.name.slice(doc.name.lastIndexOf('/') + 1), data: decodeFields(doc.fields) })
        pageToken = body.nextPageToken ?? ''
      } while (pageToken)
      return documents
    },
  }
}
