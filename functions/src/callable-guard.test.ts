import { describe, expect, it } from 'vitest'
import { callableBodyProblem, guardMessages, MAX_CALLABLE_DEPTH } from './callable-guard.ts'

function nested(depth: number): unknown {
  let value: unknown = 'leaf'
  for (let i = 0; i < depth; i += 1) value = { a: [value] }
  return value
}

describe('callableBodyProblem', () => {
  it('lets ordinary requests through', () => {
    expect(callableBodyProblem({ data: null })).toBeNull()
    expect(callableBodyProblem({ data: { email: 'a@b.example', list: [1, { x: 'y' }] } })).toBeNull()
    expect(callableBodyProblem({ data: nested(MAX_CALLABLE_DEPTH / 2 - 1) })).toBeNull()
  })

  it('refuses what the protocol would fail to decode', () => {
    expect(callableBodyProblem({ data: nested(10_000) })).toBe(guardMessages.depth)
    expect(callableBodyProblem({ data: { n: { '@type': 'type.googleapis.com/google.protobuf.Int64Value', value: 'x' } } })).toBe(
      guardMessages.typed,
    )
    expect(callableBodyProblem({ data: [{ '@type': 'anything' }] })).toBe(guardMessages.typed)
    for (const body of [null, 'text', [], {}, { date: 1 }]) expect(callableBodyProblem(body)).toBe(guardMessages.shape)
  })
})
