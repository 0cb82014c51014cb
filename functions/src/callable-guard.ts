// What the callable protocol's own decoding cannot take: the SDK turns `{"@type": …}` objects into
// numbers or throws, and walks nesting recursively. Either failure happens before any handler and
// answers INTERNAL, so bodies like that are refused first, as the invalid arguments they are.
import type { Response } from 'express'
import type { Request } from 'firebase-functions/v2/https'

/** Deeper than any request a callable takes (the template import is the deepest, about 8). */
export const MAX_CALLABLE_DEPTH = 32

export const guardMessages = {
  shape: 'The request must be a JSON object with a data field.',
  depth: 'The request is nested too deeply.',
  typed: 'The request holds a value of a type callables do not take.',
} as const

/** Why the callable protocol must not decode `body`, or null when it may. */
export function callableBodyProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('data' in body)) return guardMessages.shape
  const stack: { value: unknown; depth: number }[] = [{ value: (body as { data: unknown }).data, depth: 1 }]
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!
    if (typeof value !== 'object' || value === null) continue
    if (depth > MAX_CALLABLE_DEPTH) return guardMessages.depth
    if (!Array.isArray(value) && Object.hasOwn(value, '@type')) return guardMessages.typed
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 })
  }
  return null
}

/** `callable` behind the guard: a refused body is answered invalid-argument the way the protocol answers it. */
export function guardCallable<F extends (req: Request, res: Response) => unknown>(callable: F): F {
  const guarded = (req: Request, res: Response) => {
    const problem = req.method === 'POST' ? callableBodyProblem(req.body) : null
    if (!problem) return callable(req, res)
    // The protocol's CORS answer (onCall reflects the origin), so the browser can read the refusal.
    const origin = req.headers.origin
    if (origin) res.set({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' })
    res.status(400).json({ error: { status: 'INVALID_ARGUMENT', message: problem } })
    return undefined
  }
  // The deploy and the emulator find the trigger's description on the function itself.
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(callable))) {
    if (key !== 'length' && key !== 'name' && key !== 'prototype') Object.defineProperty(guarded, key, descriptor)
  }
  return guarded as unknown as F
}
