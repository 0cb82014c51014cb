// Checks a real answer of the client API against its OpenAPI 3.1 document (JSON Schema 2020-12,
// ajv): the operation's response for the status, or the error schema for a call the document does
// not list; and the headers it sends, for a documented call. Every emulator test of the API passes
// its answers through here.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import { CLIENT_API_OPENAPI } from '#domain/client-api-openapi.ts'

const DOCUMENT_ID = 'https://bulwark.example/api/v1/openapi.json'

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
ajv.addSchema({ ...CLIENT_API_OPENAPI, $id: DOCUMENT_ID })

const compiled = new Map<string, ReturnType<typeof ajv.compile>>()

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

/** The document's path template a request path falls under (`/findings/{id}`), or null. */
function templateOf(path: string): string | null {
  return (
    Object.keys(CLIENT_API_OPENAPI.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path)) ?? null
  )
}

type Responses = Record<string, { headers?: Record<string, unknown> }>

/** Passes when `body` (and every header) is what the document says `method path` answers with `status`. */
export function expectDocumented(
  method: string,
  path: string,
  answer: { status: number; body: unknown; headers?: Record<string, string> },
): void {
  const template = templateOf(path)
  const operation = template
    ? (CLIENT_API_OPENAPI.paths as Record<string, Record<string, { responses: Responses }>>)[template]?.[method.toLowerCase()]
    : undefined
  let ref = `${DOCUMENT_ID}#/components/schemas/Error`
  if (operation) {
    expect(Object.keys(operation.responses), `${method} ${path}: status ${answer.status} documented`).toContain(String(answer.status))
    const documented = Object.keys(operation.responses[String(answer.status)]?.headers ?? {})
    for (const header of Object.keys(answer.headers ?? {}))
      expect(documented, `${method} ${path} (${answer.status}): header ${header} documented`).toContain(header)
    ref = `${DOCUMENT_ID}#/${pointer('paths', template!, method.toLowerCase(), 'responses', String(answer.status), 'content', 'application/json', 'schema')}`
  } else {
    expect(answer.status, `${method} ${path}: an undocumented call is refused`).toBeGreaterThanOrEqual(400)
  }
  const validate = compiled.get(ref) ?? compiled.set(ref, ajv.compile({ $ref: ref })).get(ref)!
  const valid = validate(answer.body)
  expect(valid ? [] : validate.errors, `${method} ${path} (${answer.status}) matches the OpenAPI document`).toEqual([])
}
