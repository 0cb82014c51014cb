import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { SUPPORT_MESSAGE_MAX_LENGTH, SupportRequestSchema } from './support.ts'

const parse = (value: unknown) => v.safeParse(SupportRequestSchema, value)

describe('SupportRequestSchema', () => {
  it('accepts each request type and trims the message', () => {
    for (const request_type of ['feature', 'question', 'bug']) {
      const result = parse({ message: '  Hello  ', request_type })
      expect(result.success && result.output).toEqual({ message: 'Hello', request_type })
    }
  })

  it('accepts a message of the maximum length', () => {
    expect(parse({ message: 'a'.repeat(SUPPORT_MESSAGE_MAX_LENGTH), request_type: 'bug' }).success).toBe(true)
  })

  it.each([
    ['a missing message', { request_type: 'bug' }],
    ['an empty message', { message: '', request_type: 'bug' }],
    ['a blank message', { message: ' \n\t ', request_type: 'bug' }],
    ['an oversized message', { message: 'a'.repeat(SUPPORT_MESSAGE_MAX_LENGTH + 1), request_type: 'bug' }],
    ['a non-string message', { message: 42, request_type: 'bug' }],
    ['an unknown request type', { message: 'Hi', request_type: 'praise' }],
    ['a missing request type', { message: 'Hi' }],
    ['an extra key', { message: 'Hi', request_type: 'bug', uid: 'someone-else' }],
    ['a string', 'Hi'],
    ['null', null],
  ])('refuses %s', (_, value) => {
    expect(parse(value).success).toBe(false)
  })
})
