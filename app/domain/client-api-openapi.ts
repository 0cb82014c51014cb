// The client API's OpenAPI 3.1 document, served at /api/v1/openapi.json, with the DAST API's two
// calls beside it (its own refusal shape, a sentence). Built from the same lists the APIs check
// against (statuses, severities, services, scopes, error codes, page bounds), and every response
// the emulator tests receive is validated against it.
import { API_SCOPES } from './access.ts'
import { CALL_RECEIPT_KEEP_MS } from './call-receipts.ts'
import {
  API_ERROR_CODES,
  API_HISTORY_LIMIT,
  API_PAGE,
  CLIENT_API_LIMITS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
} from './client-api.ts'
import { COMMENT_MAX_LENGTH } from './finding-comments.ts'
import { DAST_SCAN_STATUSES, DAST_SCANS_AT_ONCE, DAST_TARGET_MAX } from './dast-api.ts'
import { FINDING_STATUSES } from './finding-statuses.ts'
import { FINDING_ACTIONS, MAX_ACCEPTANCE_DAYS } from './finding-workflow.ts'
import { FINDING_LOCATION_KEYS } from './findings.ts'
import { FINDING_NOTE_MAX } from './reports-calls.ts'
import { services } from './services.ts'
import { SEVERITIES } from './template-vocabulary.ts'

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const time = { type: ['string', 'null'], format: 'date-time' }
const strings = { type: 'array', items: { type: 'string' } }
const SERVICE_IDS = services.map((s) => s.id)
const severityCounts = {
  type: 'object',
  required: [...SEVERITIES],
  properties: Object.fromEntries(SEVERITIES.map((s) => [s, { type: 'integer', minimum: 0 }])),
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } })
const errors = {
  '400': errorResponse('A parameter is not one the call takes (code invalid_request).'),
  '401': errorResponse('No token, an unknown, malformed, expired or revoked token (codes unauthenticated, token_expired, token_revoked).'),
  '403': errorResponse('The token lacks the scope, or the service is closed to it (codes missing_scope, forbidden).'),
  '429': {
    ...errorResponse(`More than ${CLIENT_API_LIMITS.perToken} calls a minute for the token (code rate_limited).`),
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
  },
  '503': errorResponse('The server cannot reach its database now (code unavailable).'),
}

/** What a write answers besides its own answer: refusals of its body, finding and workflow, and a replay's header. */
const writeErrors = {
  ...errors,
  '400': errorResponse('The body or the Idempotency-Key is not one the call takes; error.field names which (code invalid_request).'),
  '404': errorResponse('No such finding for the token’s company, or one of a service closed to it (code not_found).'),
  '409': errorResponse('The findings workflow refuses the move from the finding’s status; the message says why (code conflict).'),
  '422': errorResponse('The Idempotency-Key was sent before with another body (code idempotency_key_reused).'),
}
const replayHeaders = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'true when this is the answer an earlier try with the same Idempotency-Key got; nothing was written now.',
    schema: { type: 'string', enum: ['true'] },
  },
}
const written = (schema: object, description: string) => ({ ...json(schema, description), headers: replayHeaders })
const writeParameters = [
  { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
  {
    name: IDEMPOTENCY_KEY_HEADER,
    in: 'header',
    description:
      `Makes the call once for the token: a retry with the same key and body answers the first try and writes nothing ` +
      `(kept ${CALL_RECEIPT_KEEP_MS / 3_600_000} hours). A UUID, or any 16 to 64 letters, digits, dashes and underscores.`,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
  },
]
const body = (schema: object) => ({ required: true, content: { 'application/json': { schema } } })
const text = (max: number, description: string) => ({ type: 'string', minLength: 1, maxLength: max, description })

/** The DAST API's refusals: a sentence (decision 0021), not the client API's code and message. */
const dastError = (description: string) => ({ description, content: { 'application/json': { schema: ref('DastError') } } })
const dastSecurity = [{ dastKey: [] }, { apiToken: [] }]
const dastErrors = {
  '401': dastError('No key, or an unknown, expired or revoked DAST key or API token.'),
  '403': dastError(
    'The target is outside the key’s allowed targets or the company’s scan scope, the company has no DAST triggering, or the token lacks dast:trigger.',
  ),
  '429': {
    ...dastError(`The key has ${DAST_SCANS_AT_ONCE} scans waiting or running, or too many calls a minute.`),
    headers: { 'Retry-After': { description: 'Seconds to wait (too many calls).', schema: { type: 'integer' } } },
  },
  '503': dastError('Keys are not set up on this server, or the database is out of reach now.'),
}

const pageParameters = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: API_PAGE.max, default: API_PAGE.default } },
  {
    name: 'cursor',
    in: 'query',
    description: 'The nextCursor of the previous page.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
  },
]
const serviceParameter = { name: 'service', in: 'query', schema: { type: 'string', enum: SERVICE_IDS } }
const pageOf = (item: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['data', 'nextCursor'],
  properties: { data: { type: 'array', items: ref(item) }, nextCursor: { type: ['string', 'null'] } },
})
const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } })

const findingProperties = {
  id: { type: 'string' },
  service: { type: 'string', enum: SERVICE_IDS },
  title: { type: 'string' },
  severity: { type: 'string', enum: [...SEVERITIES] },
  status: { type: 'string', enum: [...FINDING_STATUSES] },
  asset: { type: 'string' },
  location: {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(FINDING_LOCATION_KEYS.map((key) => [key, { type: 'string' }])),
  },
  cvss: {
    oneOf: [
      { type: 'null' },
      {
        type: 'object',
        required: ['version', 'vector', 'score'],
        properties: { version: { type: 'string' }, vector: { type: 'string' }, score: { type: 'number' } },
      },
    ],
  },
  cwe: strings,
  tags: strings,
  regression: { type: 'boolean' },
  firstSeenAt: time,
  lastSeenAt: time,
  publishedAt: time,
  slaState: { type: 'string', enum: ['none', 'ok', 'due_soon', 'breached', 'paused'] },
  dueAt: time,
  closedAt: time,
  fixedAt: time,
  retestId: { type: ['string', 'null'] },
  updatedAt: time,
}

export const CLIENT_API_OPENAPI = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
  info: {
    title: 'Bulwark client API',
    version: '1.0.0',
    description:
      'Findings and scans of the company an API token belongs to, its findings’ retests, risk acceptances and comments, ' +
      'and the DAST scans a pipeline triggers. Send the token as `Authorization: Bearer bwk_api_…`; tokens are made on ' +
      'the API tokens page by a company admin. Every refusal is `{"error": {"code", "message", "field"?}}`, but the DAST ' +
      'API’s, which are `{"error": "<sentence>"}`.',
  },
  servers: [{ url: '/api/v1' }],
  security: [{ apiToken: [] }],
  paths: {
    '/findings': {
      get: {
        operationId: 'listFindings',
        summary: 'Findings, last seen first (scope findings:read).',
        parameters: [
          serviceParameter,
          { name: 'status', in: 'query', schema: { type: 'string', enum: [...FINDING_STATUSES] } },
          { name: 'severity', in: 'query', schema: { type: 'string', enum: [...SEVERITIES] } },
          ...pageParameters,
        ],
        responses: { '200': json(pageOf('Finding'), 'A page of findings.'), ...errors },
      },
    },
    '/findings/{id}': {
      get: {
        operationId: 'getFinding',
        summary: `One finding with its history, oldest first, at most ${API_HISTORY_LIMIT} entries (scope findings:read).`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': json(ref('FindingDetail'), 'The finding.'),
          '404': errorResponse('No such finding for the token’s company (code not_found).'),
          ...errors,
        },
      },
    },
    '/findings/{id}/retest': {
      post: {
        operationId: 'requestRetest',
        summary: 'Ask the analysts to test the finding again, as the page’s “Request retest” (scope findings:write).',
        description:
          'The finding moves to retest_requested (its SLA clock stands still) and joins a new retest request, due after the turnaround. ' +
          `It takes the finding from ${FINDING_ACTIONS.request_retest.from.join(', ')}.`,
        parameters: writeParameters,
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['note'],
          properties: { note: text(FINDING_NOTE_MAX, 'What was changed, for the analyst.') },
        }),
        responses: { '201': written(ref('RetestRequested'), 'The retest request.'), ...writeErrors },
      },
    },
    '/findings/{id}/accept-risk': {
      post: {
        operationId: 'acceptRisk',
        summary: 'Ask to accept the finding’s risk until a date, as the page’s “Ask to accept the risk” (scope findings:write).',
        description:
          'The finding moves to acceptance_requested; a company admin approves or refuses on the finding’s page. ' +
          `It takes the finding from ${FINDING_ACTIONS.request_acceptance.from.join(', ')}; the acceptance ends within ${MAX_ACCEPTANCE_DAYS} days.`,
        parameters: writeParameters,
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['justification', 'expiresAt'],
          properties: {
            justification: text(FINDING_NOTE_MAX, 'Why the risk can be accepted.'),
            expiresAt: {
              description: 'When the acceptance ends: a day (its last second, UTC) or a date-time with its offset, in the future.',
              oneOf: [
                { type: 'string', format: 'date' },
                { type: 'string', format: 'date-time' },
              ],
            },
          },
        }),
        responses: { '200': written(ref('AcceptanceRequested'), 'The acceptance asked for.'), ...writeErrors },
      },
    },
    '/findings/{id}/comments': {
      post: {
        operationId: 'addComment',
        summary: 'Comment on the finding, for everyone who reads it (scope findings:write).',
        description: 'People mentioned as @address in the body who may read the finding are told, as on the page.',
        parameters: writeParameters,
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['body'],
          properties: { body: text(COMMENT_MAX_LENGTH, 'The comment, Markdown.') },
        }),
        responses: { '201': written(ref('CommentAdded'), 'The comment.'), ...writeErrors },
      },
    },
    '/dast/scans': {
      post: {
        operationId: 'triggerDastScan',
        summary: 'Trigger a DAST scan of a target within the company’s scan scope (a DAST key, or an API token with dast:trigger).',
        description:
          'A location that scans for the company and has a DAST agent online runs it; a token’s scans, and those of a key that does not publish at once, wait for an analyst’s review.',
        security: dastSecurity,
        requestBody: body({
          type: 'object',
          additionalProperties: false,
          required: ['target'],
          properties: {
            target: { type: 'string', minLength: 1, maxLength: DAST_TARGET_MAX, description: 'A host name, address or http(s) URL.' },
            location: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The agents’ location to scan from.' },
          },
        }),
        responses: {
          '202': json(ref('DastScanQueued'), 'The scan is queued.'),
          '400': dastError('The body is not JSON, or the target is not one every URL parser reads alike.'),
          '409': dastError('No agent is online at a location that scans for the company.'),
          ...dastErrors,
        },
      },
    },
    '/dast/scans/{id}': {
      get: {
        operationId: 'getDastScan',
        summary: 'A triggered scan’s status, and when it succeeded, its findings by severity and those new to the company.',
        security: dastSecurity,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } }],
        responses: {
          '200': json(ref('DastScan'), 'The scan.'),
          '404': dastError('No such scan for the key’s company.'),
          ...dastErrors,
        },
      },
    },
    '/scans': {
      get: {
        operationId: 'listScans',
        summary: 'Published scans, newest first (scope findings:read).',
        parameters: [serviceParameter, ...pageParameters],
        responses: { '200': json(pageOf('Scan'), 'A page of scans.'), ...errors },
      },
    },
  },
  components: {
    securitySchemes: {
      apiToken: {
        type: 'http',
        scheme: 'bearer',
        description: `An API token with its scopes: ${API_SCOPES.join(', ')}.`,
      },
      dastKey: {
        type: 'http',
        scheme: 'bearer',
        description: 'A DAST key (bwk_dast_…) from the DAST keys page, naming the targets it may scan.',
      },
    },
    schemas: {
      Error: {
        type: 'object',
        additionalProperties: false,
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'message'],
            properties: {
              code: { type: 'string', enum: Object.keys(API_ERROR_CODES) },
              message: { type: 'string' },
              field: { type: 'string', description: 'The body’s field, or the header, a 400 is about.' },
            },
          },
        },
      },
      Finding: { type: 'object', additionalProperties: false, required: Object.keys(findingProperties), properties: findingProperties },
      FindingDetail: {
        type: 'object',
        additionalProperties: false,
        required: [...Object.keys(findingProperties), 'description', 'impact', 'remediation', 'references', 'history'],
        properties: {
          ...findingProperties,
          description: { type: 'string', description: 'Markdown.' },
          impact: { type: 'string', description: 'Markdown.' },
          remediation: { type: 'string', description: 'Markdown.' },
          references: strings,
          history: { type: 'array', items: ref('HistoryEntry') },
        },
      },
      HistoryEntry: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'action', 'from', 'to', 'at', 'by', 'role', 'note'],
        properties: {
          id: { type: 'string' },
          action: { type: 'string' },
          from: { type: 'string', enum: [...FINDING_STATUSES] },
          to: { type: 'string', enum: [...FINDING_STATUSES] },
          at: time,
          by: { type: 'string' },
          role: { type: 'string', enum: ['viewer', 'manager', 'company-admin', 'analyst', 'system'] },
          note: { type: ['string', 'null'] },
        },
      },
      RetestRequested: {
        type: 'object',
        additionalProperties: false,
        required: ['findingId', 'status', 'retestId', 'dueAt'],
        properties: {
          findingId: { type: 'string' },
          status: { const: FINDING_ACTIONS.request_retest.to },
          retestId: { type: 'string' },
          dueAt: { type: 'string', format: 'date-time', description: 'When the analysts owe the outcome.' },
        },
      },
      AcceptanceRequested: {
        type: 'object',
        additionalProperties: false,
        required: ['findingId', 'status', 'expiresAt'],
        properties: {
          findingId: { type: 'string' },
          status: { const: FINDING_ACTIONS.request_acceptance.to },
          expiresAt: { type: 'string', format: 'date-time' },
        },
      },
      CommentAdded: {
        type: 'object',
        additionalProperties: false,
        required: ['findingId', 'commentId'],
        properties: { findingId: { type: 'string' }, commentId: { type: 'string' } },
      },
      DastError: {
        type: 'object',
        additionalProperties: false,
        required: ['error'],
        properties: { error: { type: 'string' } },
      },
      DastScanQueued: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'status', 'statusUrl'],
        properties: { id: { type: 'string' }, status: { const: 'queued' }, statusUrl: { type: 'string' } },
      },
      DastScan: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'status', 'target', 'createdAt', 'finishedAt', 'error'],
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: [...DAST_SCAN_STATUSES] },
          target: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          finishedAt: time,
          error: { type: ['string', 'null'] },
          summary: {
            type: 'object',
            additionalProperties: false,
            required: ['total', 'bySeverity', 'new', 'newBySeverity'],
            properties: { total: { type: 'integer' }, bySeverity: severityCounts, new: { type: 'integer' }, newBySeverity: severityCounts },
          },
          newFindings: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['title', 'severity', 'location'],
              properties: { title: { type: 'string' }, severity: { type: 'string', enum: [...SEVERITIES] }, location: { type: 'string' } },
            },
          },
        },
      },
      Scan: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'service', 'title', 'tool', 'targets', 'side', 'startedAt', 'finishedAt', 'publishedAt', 'counts'],
        properties: {
          id: { type: 'string' },
          service: { type: 'string', enum: SERVICE_IDS },
          title: { type: 'string' },
          tool: { type: 'string' },
          targets: strings,
          side: { type: 'boolean', description: 'A scan of part of the scope (one host, say), not the service’s whole scope.' },
          startedAt: time,
          finishedAt: time,
          publishedAt: time,
          counts: {
            type: 'object',
            required: ['bySeverity', 'total', 'new', 'persisting', 'notDetected', 'reopened'],
            properties: {
              bySeverity: severityCounts,
              total: { type: 'integer' },
              new: { type: 'integer' },
              persisting: { type: 'integer' },
              notDetected: { type: 'integer' },
              reopened: { type: 'integer' },
            },
          },
        },
      },
    },
  },
} as const
