import { describe, expect, it } from 'vitest'
import { signInMessages } from '#domain/sign-in.ts'
import { NOT_AUTHORIZED_NEXT, outcomeOf } from './sign-in-texts'

describe('outcomeOf', () => {
  it('gives each answer its own tone, and the refusal who to ask', () => {
    expect(outcomeOf(true, signInMessages.sent)).toEqual({ tone: 'success', text: signInMessages.sent })
    expect(outcomeOf(false, signInMessages.notAuthorized)).toEqual({
      tone: 'error',
      text: signInMessages.notAuthorized,
      next: NOT_AUTHORIZED_NEXT,
    })
    expect(outcomeOf(false, signInMessages.tooMany)).toEqual({ tone: 'warning', text: signInMessages.tooMany })
    expect(outcomeOf(false, signInMessages.cannotSend)).toEqual({ tone: 'error', text: signInMessages.cannotSend })
  })
})
