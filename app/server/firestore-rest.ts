// Firestore's REST API as the edge and the browser both read it (the browser imports this module
// too: it has no `.server` in its name): values turned into plain data, and structured queries sent
// with the reader's own ID token, so the security rules decide exactly as for the SDK. A query's
// answer is one response body, gone once read: nothing of it stays in a cache or a channel (an
// export reads a large service this way, a page at a time).
import type { PublicConfig } from '~/core/session'

/** A Firestore REST value (https://firebase.google.com/docs/firestore/reference/rest/v1/Value). */
export type RestValue =
  | { nullValue: null }
  | { booleanValue: boolean }
  | { integerValue: string }
  | { doubleValue: number }
  | { timestampValue: string }
  | { stringValue: string }
  | { bytesValue: string }
  | { referenceValue: string }
  | { geoPointValue: { latitude: number; longitude: number } }
  | { arrayValue: { values?: RestValue[] } }
  | { mapValue: { fields?: Record<string, RestValue> } }

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain }

/** Turns a REST value into plain data: integers to numbers, timestamps to epoch milliseconds. */
export function decodeValue(value: RestValue): Plain {
  if ('nullValue' in value) return null
  if ('booleanValue' in value) return value.booleanValue
  if ('integerValue' in value) return Number(value.integerValue)
  if ('doubleValue' in value) return Number(value.doubleValue)
  if ('timestampValue' in value) return Date.parse(value.timestampValue)
  if ('stringValue' in value) return value.stringValue
  if ('bytesValue' in value) return value.bytesValue
  if ('referenceValue' in value) return value.referenceValue
  if ('geoPointValue' in value) return { latitude: value.geoPointValue.latitude, longitude: value.geoPointValue.longitude }
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(decodeValue)
  if ('mapValue' in value) return decodeFields(value.mapValue.fields)
  throw new Error(`Unknown Firestore value: ${JSON.stringify(value).slice(0, 80)}`)
}

export function decodeFields(fields: Record<string, RestValue> | undefined): { [key: string]: Plain } {
  const out: { [key: string]: Plain } = {}
  for (const [key, value] of Object.entries(fields ?? {})) out[key] = decodeValue(value)
  return out
}

/** The rules refused the read. */
export class FirestoreReadDenied extends Error {}

/** Tries of one read whose connection failed before any answer. */
const READ_TRIES = 4

/**
 * A read's request, sent again when the connection under it failed before any answer: kept-alive
 * connections the other end had closed (the edge's runtime says "Network connection lost"). A
 * server that went away closes every connection the runtime keeps, so the next tries can meet
 * another closed one: each fails at once, and a fresh connection follows. A read changes nothing,
 * so asking again is safe; an answer, even an error, is final.
 */
export async function readRequest(url: string, init: RequestInit): Promise<Response> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await fetch(url, init)
    } catch (error) {
      if (init.signal?.aborted || tried >= READ_TRIES) throw error
    }
  }
}

type Config = Pick<PublicConfig, 'projectId' | 'emulators'>

/** Where Firestore answers: its emulator in local runs, Google's host when deployed. */
export const firestoreOrigin = (config: Pick<PublicConfig, 'emulators'>): string =>
  config.emulators?.firestore ? `http://${config.emulators.firestore}` : 'https://firestore.googleapis.com'

/** A structured query of one collection under `parent`: equality (or IN) filters, an order, a limit, a cursor. */
export interface StructuredQuery {
  /** The document the collection is under (`companies/acme`). */
  parent: string
  collectionId: string
  filters: { field: string; op: 'EQUAL' | 'IN'; value: RestValue }[]
  orderBy: { field: string; direction: 'ASCENDING' | 'DESCENDING' }[]
  limit: number
  /** Starts after the document with these values of the ordered fields (the last of a page). */
  startAfter?: RestValue[]
}

export interface QueriedDocument {
  id: string
  /** The document's full name (`projects/…/documents/…`): the `__name__` value of a cursor. */
  name: string
  /** As stored, for a cursor's values. */
  fields: Record<string, RestValue>
  data: { [key: string]: Plain }
}

/** Runs `structured` as the holder of `idToken`; `signal` ends the request (a timeout, a cancel). */
export async function runStructuredQuery(
  config: Config,
  idToken: string,
  structured: StructuredQuery,
  signal: AbortSignal,
): Promise<QueriedDocument[]> {
  const encode = (path: string) => path.split('/').map(encodeURIComponent).join('/')
  const url = `${firestoreOrigin(config)}/v1/projects/${config.projectId}/databases/(default)/documents/${encode(structured.parent)}:runQuery`
  const filters = structured.filters.map((f) => ({ fieldFilter: { field: { fieldPath: f.field }, op: f.op, value: f.value } }))
  const response = await readRequest(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${idToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      structuredQuery: {
        from: [{ collectionId: structured.collectionId }],
        where: filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { compositeFilter: { op: 'AND', filters } },
        orderBy: structured.orderBy.map((o) => ({ field: { fieldPath: o.field }, direction: o.direction })),
        ...(structured.startAfter ? { startAt: { values: structured.startAfter, before: false } } : {}),
        limit: structured.limit,
      },
    }),
    signal,
  })
  if (response.status === 403) throw new FirestoreReadDenied(url)
  if (!response.ok) throw new Error(`Firestore query of ${structured.parent}/${structured.collectionId} answered ${response.status}`)
  const rows = (await response.json()) as { document?: { name: string; fields?: Record<string, RestValue> } }[]
  return rows.flatMap(({ document }) =>
    document
      ? [
          {
            id: document.name.slice(document.name.lastIndexOf('/') + 1),
            name: document.name,
            fields: document.fields ?? {},
            data: decodeFields(document.fields),
          },
        ]
      : [],
  )
}
