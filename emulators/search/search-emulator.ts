// Local search emulator: the subset of Algolia's REST API (v1) the product uses, in memory, so the
// real `algoliasearch` client works against it with custom `hosts`. See README.md for what is
// covered; main.ts runs it on its own.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { isAllowedHost, isLoopbackName, portListenError, urlHost } from '../local-service.ts'
import { ApiError, parseOrBadRequest } from './api-error.ts'
import { assertIndexAllowed, assertPermission, authenticate } from './api-keys.ts'
import type { Access, Credentials, Permission } from './api-keys.ts'
import { SEARCH_EMULATOR_DEFAULTS } from './config.ts'
import { FilterSyntaxError, parseFacetFilters, parseFilters, parseNumericFilters } from './filters.ts'
import type { Filter } from './filters.ts'
import { INDEX_NOT_FOUND_MESSAGE, IndexStore } from './search-index.ts'
import type { SearchResponse } from './search-index.ts'
import {
  BatchSchema,
  GetObjectsSchema,
  parseListParam,
  parseMultipleQueries,
  parseSearchParams,
  parseSettings,
  parseSingleQuery,
  RecordSchema,
  serializeParams,
} from './search-params.ts'

export type SearchEmulatorOptions = Credentials & {
  /** 0 picks a free port; the actual one is in the returned `url`/`host`. */
  port: number
  /** Default 127.0.0.1 (SEARCH_EMULATOR_DEFAULTS.host). */
  host?: string
}

export type SearchEmulator = {
  /** e.g. http://127.0.0.1:7700 (no trailing slash) */
  url: string
  /** host:port, as algoliasearch's `hosts[].url` wants it */
  host: string
  port: number
  close(): Promise<void>
}

/** The port could not be opened (the error the dev launcher prints in one line). */
export { PortListenError as SearchEmulatorListenError } from '../local-service.ts'

const listenError = (err: NodeJS.ErrnoException, host: string, port: number) =>
  portListenError(err, host, port, { portVariable: 'SEARCH_PORT', hostVariable: 'SEARCH_HOST' })

const MAX_BODY_BYTES = 50 * 1024 * 1024
/** How long an idle client connection stays open (see keepAliveTimeout below). */
export const IDLE_CONNECTION_MS = 10 * 60_000
const gunzipAsync = promisify(gunzip)

/** What a route's path captured; '' when it has no such segment. */
type PathValues = { index: string; objectID: string; taskID: string }

type RouteContext = PathValues & { access: Access; query: URLSearchParams; body: unknown }

type Route = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path segments; `:index`, `:objectID` and `:taskID` capture one. */
  path: string[]
  permission: Permission
  handle(context: RouteContext): unknown
}

/** Browsers may call from pages served by this machine (the app runs on another port). */
function allowedOrigin(origin: string | undefined, boundHost: string): string | undefined {
  if (!origin) return undefined
  try {
    const { hostname } = new URL(origin)
    return isLoopbackName(hostname) || hostname === boundHost ? origin : undefined
  } catch {
    return undefined
  }
}

/**
 * A request a page of another site made: its Origin is not one of this machine's, or (a plain link,
 * image or form, which may send no Origin) the browser says it is cross-site and names no origin.
 */
function fromForeignPage(req: IncomingMessage, boundHost: string): boolean {
  const origin = req.headers.origin
  if (origin !== undefined) return allowedOrigin(origin, boundHost) === undefined
  return req.headers['sec-fetch-site'] === 'cross-site'
}

/**
 * A credential from its header or, as browsers send it, from the query string. Keys in the query
 * string need no preflight, so a page of another site could use them through a form or an image:
 * those are taken only from pages of this machine.
 */
function credential(req: IncomingMessage, query: URLSearchParams, name: string, boundHost: string): string | undefined {
  const header = req.headers[name]
  if (typeof header === 'string' && header !== '') return header
  for (const [key, value] of query) {
    if (key.toLowerCase() !== name) continue
    if (fromForeignPage(req, boundHost)) throw new ApiError(403, 'Credentials in the query string are not accepted from other sites')
    return value
  }
  return undefined
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new ApiError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  let body = Buffer.concat(chunks)
  if (req.headers['content-encoding'] === 'gzip') {
    try {
      body = await gunzipAsync(body, { maxOutputLength: MAX_BODY_BYTES })
    } catch {
      throw new ApiError(400, 'Body is not valid gzip')
    }
  }
  if (body.length === 0) return undefined
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    throw new ApiError(400, 'Invalid JSON')
  }
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8' }

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, JSON_HEADERS)
  res.end(JSON.stringify(body))
}

/** An answer checked and known to succeed, worked out once its headers are on their way. */
class Computed {
  readonly compute: () => unknown

  constructor(compute: () => unknown) {
    this.compute = compute
  }
}

export async function startSearchEmulator(options: SearchEmulatorOptions): Promise<SearchEmulator> {
  const host = options.host ?? SEARCH_EMULATOR_DEFAULTS.host
  const credentials: Credentials = { appId: options.appId, adminApiKey: options.adminApiKey, searchApiKey: options.searchApiKey }
  const store = new IndexStore()

  /** Filter syntax errors are the caller's: 400, saying whether the key's filters are at fault. */
  function filterOrBadRequest(build: () => Filter, where = ''): Filter {
    try {
      return build()
    } catch (err) {
      if (err instanceof FilterSyntaxError) throw new ApiError(400, `${err.message}${where}`)
      throw err
    }
  }

  /** A query checked (key, index, parameters, filters), to be answered when called. */
  function prepareQuery(access: Access, indexName: string, requestParams: Record<string, unknown>): () => SearchResponse {
    assertIndexAllowed(access, indexName)
    if (!store.has(indexName)) throw new ApiError(404, INDEX_NOT_FOUND_MESSAGE)
    // a secured key's parameters win over the query's, except filters, which apply on top
    const keyParams = access.kind === 'secured' ? access.searchParams : {}
    const params = parseSearchParams({ ...requestParams, ...keyParams })
    const filter = filterOrBadRequest(() => [
      ...parseFilters(params.filters ?? ''),
      ...(params.facetFilters === undefined ? [] : parseFacetFilters(params.facetFilters)),
      ...(params.numericFilters === undefined ? [] : parseNumericFilters(params.numericFilters)),
    ])
    const keyFilters = access.kind === 'secured' ? access.filters : undefined
    const keyFilter = keyFilters === undefined ? [] : filterOrBadRequest(() => parseFilters(keyFilters), ' (in the API key)')
    return () =>
      store.search(indexName, {
        params,
        filter: [...filter, ...keyFilter],
        paramsText: serializeParams(requestParams),
        hideUnretrievable: access.kind !== 'admin',
      })
  }

  function recordBody(body: unknown) {
    return parseOrBadRequest(RecordSchema, body, 'record')
  }

  const routes: Route[] = [
    { method: 'GET', path: ['1', 'indexes'], permission: 'admin', handle: () => store.list() },
    {
      method: 'POST',
      path: ['1', 'indexes', '*', 'queries'],
      permission: 'search',
      handle: ({ access, body }) => {
        const queries = parseMultipleQueries(body).map(({ indexName, params }) => prepareQuery(access, indexName, params))
        return new Computed(() => ({ results: queries.map((query) => query()) }))
      },
    },
    {
      method: 'POST',
      path: ['1', 'indexes', '*', 'objects'],
      permission: 'read',
      handle: ({ access, body }) =>
        store.getObjects(parseOrBadRequest(GetObjectsSchema, body, 'request body').requests, access.kind !== 'admin'),
    },
    {
      method: 'POST',
      path: ['1', 'indexes', ':index', 'query'],
      permission: 'search',
      handle: ({ access, index, body }) => new Computed(prepareQuery(access, index, parseSingleQuery(body))),
    },
    {
      method: 'POST',
      path: ['1', 'indexes', ':index', 'batch'],
      permission: 'admin',
      handle: ({ index, body }) => store.batch(index, parseOrBadRequest(BatchSchema, body, 'batch').requests),
    },
    {
      method: 'POST',
      path: ['1', 'indexes', ':index', 'clear'],
      permission: 'admin',
      handle: ({ index }) => store.clear(index),
    },
    {
      method: 'GET',
      path: ['1', 'indexes', ':index', 'settings'],
      permission: 'admin',
      handle: ({ index }) => store.getSettings(index),
    },
    {
      method: 'PUT',
      path: ['1', 'indexes', ':index', 'settings'],
      permission: 'admin',
      handle: ({ index, query, body }) => store.setSettings(index, parseSettings(body), query.get('forwardToReplicas') === 'true'),
    },
    {
      method: 'GET',
      path: ['1', 'indexes', ':index', 'task', ':taskID'],
      permission: 'admin',
      handle: ({ taskID }) => store.taskStatus(Number(taskID)),
    },
    {
      method: 'POST',
      path: ['1', 'indexes', ':index', ':objectID', 'partial'],
      permission: 'admin',
      handle: ({ index, objectID, query, body }) =>
        store.partialUpdate(index, objectID, recordBody(body), query.get('createIfNotExists') !== 'false'),
    },
    {
      method: 'GET',
      path: ['1', 'indexes', ':index', ':objectID'],
      permission: 'read',
      handle: ({ access, index, objectID, query }) => {
        const attributes = query.get('attributesToRetrieve')
        const list = attributes === null ? undefined : parseListParam(attributes)
        if (list !== undefined && !Array.isArray(list)) {
          throw new ApiError(400, 'attributesToRetrieve must be a list of attribute names')
        }
        return store.getObject(index, objectID, list?.map(String), access.kind !== 'admin')
      },
    },
    {
      method: 'PUT',
      path: ['1', 'indexes', ':index', ':objectID'],
      permission: 'admin',
      handle: ({ index, objectID, body }) => store.putObject(index, objectID, recordBody(body)),
    },
    {
      method: 'DELETE',
      path: ['1', 'indexes', ':index', ':objectID'],
      permission: 'admin',
      handle: ({ index, objectID }) => store.deleteObject(index, objectID),
    },
    {
      method: 'POST',
      path: ['1', 'indexes', ':index'],
      permission: 'admin',
      handle: ({ index, body }) => store.saveObject(index, recordBody(body)),
    },
    {
      method: 'DELETE',
      path: ['1', 'indexes', ':index'],
      permission: 'admin',
      handle: ({ index }) => store.deleteIndex(index),
    },
  ]

  function findRoute(method: string, parts: string[]): { route: Route; values: PathValues } | undefined {
    for (const route of routes) {
      if (route.method !== method || route.path.length !== parts.length) continue
      const values: PathValues = { index: '', objectID: '', taskID: '' }
      const matches = route.path.every((expected, i) => {
        const actual = parts[i] ?? ''
        if (!expected.startsWith(':')) return expected === actual
        values[expected.slice(1) as keyof PathValues] = actual
        return actual !== ''
      })
      if (matches) return { route, values }
    }
    return undefined
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store')
    res.setHeader('X-Content-Type-Options', 'nosniff')
    if (!isAllowedHost(req.headers.host, host)) {
      sendJson(res, 421, { message: 'Unexpected Host header: use an IP address or localhost', status: 421 })
      return
    }
    const origin = allowedOrigin(req.headers.origin, host)
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
    }
    if (req.method === 'OPTIONS') {
      if (origin) {
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS')
        res.setHeader(
          'Access-Control-Allow-Headers',
          req.headers['access-control-request-headers'] ?? 'content-type, x-algolia-application-id, x-algolia-api-key',
        )
        res.setHeader('Access-Control-Max-Age', '86400')
      }
      res.writeHead(204)
      res.end()
      return
    }

    const url = new URL(req.url ?? '/', 'http://search.invalid')
    let parts: string[]
    try {
      parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      throw new ApiError(400, 'Malformed URL')
    }
    const access = authenticate(
      credential(req, url.searchParams, 'x-algolia-application-id', host),
      credential(req, url.searchParams, 'x-algolia-api-key', host),
      credentials,
    )
    const found = findRoute(req.method ?? 'GET', parts)
    if (!found) throw new ApiError(404, `The search emulator has no ${req.method} ${url.pathname}`)
    assertPermission(access, found.route.permission)
    const body = req.method === 'POST' || req.method === 'PUT' ? await readBody(req) : undefined
    const answer = found.route.handle({ ...found.values, access, query: url.searchParams, body })
    if (!(answer instanceof Computed)) return sendJson(res, 200, answer)
    // A query's answer starts at once, as Algolia's does in milliseconds: the time a large index
    // takes here counts against the client's read timeout, not its connect timeout (the browser
    // client waits 1 s for the headers).
    res.writeHead(200, JSON_HEADERS)
    res.flushHeaders()
    await new Promise((resolve) => setImmediate(resolve))
    res.end(JSON.stringify(answer.compute()))
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ApiError && !res.headersSent) {
        if (err.status === 413) res.setHeader('Connection', 'close')
        sendJson(res, err.status, { message: err.message, status: err.status })
        return
      }
      // the path only: the query string may carry an API key
      const path = new URL(req.url ?? '/', 'http://search.invalid').pathname
      console.error(`search emulator: ${req.method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      // A failure after the headers went out can only cut the answer short: the client sees it as lost.
      if (res.headersSent) res.destroy()
      else sendJson(res, 500, { message: 'Internal error in the search emulator', status: 500 })
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenError(err, host, options.port)))
    server.listen(options.port, host, () => resolve())
  })
  server.on('error', (err: Error) => console.error(`search emulator: ${err.message}`))
  // Algolia's Node client pools its connections for the whole process. Node closes an idle one
  // after 5 s, and a request sent on it as it closes is lost: with one host the client then calls
  // every host unreachable. Algolia's servers keep connections open far longer; so does this.
  server.keepAliveTimeout = IDLE_CONNECTION_MS
  const port = (server.address() as AddressInfo).port

  let closing: Promise<void> | undefined
  function close(): Promise<void> {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
    return closing
  }

  return { url: `http://${urlHost(host)}:${port}`, host: `${urlHost(host)}:${port}`, port, close }
}
