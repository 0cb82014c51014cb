import { describe, expect, it } from 'vitest'
import { plainError } from './plain-error'

describe('plainError', () => {
  it('keeps the message and nothing else of the error', () => {
    const cause = Object.assign(new Error('jose: signature verification failed'), { payload: { sub: 'uid-1' } })
    const error = Object.assign(new Error('The token was refused', { cause }), { reason: 'bad-signature' })
    const plain = plainError(error)
    expect(plain.message).toBe('The token was refused')
    expect(Object.getOwnPropertyNames(plain)).toEqual(['message'])
  })

  it('gives a thrown non-error a generic message', () => {
    expect(plainError('boom').message).toBe('The server could not complete the request.')
  })
})
