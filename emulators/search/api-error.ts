import * as v from 'valibot'

/** An answer in Algolia's error shape, `{"message": …, "status": …}`. */
export class ApiError extends Error {
  status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
  }
}

/** Validates `input` or throws a 400 naming the first offending field. */
export function parseOrBadRequest<Schema extends v.GenericSchema>(schema: Schema, input: unknown, what: string): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const [issue] = result.issues
  const path = v.getDotPath(issue)
  throw new ApiError(400, `Invalid ${what}${path ? ` at ${path}` : ''}: ${issue.message}`)
}
