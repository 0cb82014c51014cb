import { FunctionsError, type FunctionsErrorCodeCore } from 'firebase/functions'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callableMessages } from '#domain/callables.ts'
import { signInMessages } from '#domain/sign-in.ts'
import { CallError, callErrorOf, callMessages, callOver, type CallTransport } from './call'

// The SDK's error as it throws it: its code, and the server's message with the HTTP status appended.
const sdkError = (code: FunctionsErrorCodeCore, message: string) => new FunctionsError(code, message)

afterEach(() => {
  vi.restoreAllMocks()
})

describe('callErrorOf', () => {
  it.each([
    [
      'an ended sign-in',
      sdkError('unauthenticated', 'Your sign-in was revoked: sign in again. [401]'),
      'unauthenticated',
      callMessages.signedOut,
    ],
    [
      'a refusal the server worded',
      sdkError('permission-denied', 'You are not currently authorized to use this workspace. [403]'),
      'permission-denied',
      'You are not currently authorized to use this workspace.',
    ],
    ['a refusal without words', sdkError('permission-denied', 'PERMISSION_DENIED [403]'), 'permission-denied', callMessages.denied],
    [
      'a refusal the SDK worded',
      sdkError('permission-denied', 'Backend error status: PERMISSION_DENIED [403]'),
      'permission-denied',
      callMessages.denied,
    ],
    ['a refused payload', sdkError('invalid-argument', 'Invalid email [400]'), 'invalid-argument', 'Invalid email'],
    [
      'a refused precondition',
      sdkError('failed-precondition', '2 findings use this template: it can be deleted once no finding does. [400]'),
      'failed-precondition',
      '2 findings use this template: it can be deleted once no finding does.',
    ],
    ['a missing thing', sdkError('not-found', 'There is no template "x". [404]'), 'not-found', 'There is no template "x".'],
    ['a missing thing without words', sdkError('not-found', 'not-found [404]'), 'not-found', callMessages.refused],
    ['the callable timeout', sdkError('deadline-exceeded', 'deadline-exceeded'), 'deadline-exceeded', callMessages.noAnswer],
    ['an unavailable service', sdkError('unavailable', 'UNAVAILABLE [503]'), 'unavailable', callMessages.noAnswer],
    [
      'a database out of reach',
      sdkError('unavailable', `${callableMessages.databaseUnreachable} [503]`),
      'unavailable',
      callableMessages.databaseUnreachable,
    ],
    ['a request that never arrived', sdkError('internal', 'internal [0]'), 'internal', callMessages.noAnswer],
    ['a crash on the server', sdkError('internal', 'INTERNAL [500]'), 'internal', callMessages.failed],
    ['an unknown error', sdkError('unknown', 'unknown [418]'), 'unknown', callMessages.failed],
    ["an error that is not the SDK's", new TypeError('x is undefined'), 'unknown', callMessages.failed],
  ])('maps %s once', (_, error, code, message) => {
    expect(callErrorOf(error)).toMatchObject({ code, message })
  })

  it('leaves a CallError as it is', () => {
    const error = new CallError('invalid-argument', 'Invalid email')
    expect(callErrorOf(error)).toBe(error)
  })
})

describe('call', () => {
  const sent: [string, unknown][] = []
  const over = (answer: () => Promise<unknown>) => {
    sent.length = 0
    const transport: CallTransport = async (name, data) => {
      sent.push([name, data])
      return answer()
    }
    return callOver(transport)
  }

  it('sends a valid request as given and returns the answer', async () => {
    const call = over(async () => ({ success: true, message: signInMessages.sent }))
    const request = { email: ' Ada@Acme.example ', url: 'http://127.0.0.1:3000', timeZone: 'UTC' }
    expect(await call('sendSignInLink', request)).toEqual({ success: true, message: signInMessages.sent })
    expect(sent).toEqual([['sendSignInLink', request]])
  })

  it('sends null for a callable that takes nothing', async () => {
    const call = over(async () => ({ accessLevel: 1, userType: 'client' }))
    expect(await call('handleSignIn')).toEqual({ accessLevel: 1, userType: 'client' })
    expect(sent).toEqual([['handleSignIn', null]])
  })

  it('refuses a request the contract refuses without sending it', async () => {
    const call = over(async () => ({ success: true }))
    await expect(call('handleSupportEmail', { message: '   ', request_type: 'bug' })).rejects.toMatchObject({
      name: 'CallError',
      code: 'invalid-argument',
      message: 'Write a message',
    })
    await expect(call('deleteFindingTemplate', { slug: 'Not a slug' })).rejects.toMatchObject({ code: 'invalid-argument' })
    expect(sent).toEqual([])
  })

  it('refuses an answer that breaks the contract', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const call = over(async () => ({ success: 'yes' }))
    await expect(call('handleSupportEmail', { message: 'Hello', request_type: 'bug' })).rejects.toMatchObject({
      code: 'invalid-response',
      message: callMessages.unreadable,
    })
    await expect(
      over(async () => ({ success: true, searchKey: '', appId: 'app' }))('getSearchClient', { type: 'search' }),
    ).rejects.toMatchObject({
      code: 'invalid-response',
    })
    expect(logged).toHaveBeenCalledTimes(2)
  })

  it('throws what a person can act on when the call fails', async () => {
    const call = over(async () => {
      throw sdkError('failed-precondition', '1 finding uses this template: it can be deleted once no finding does. [400]')
    })
    const failure = await call('deleteFindingTemplate', { slug: 'exposed-git-directory' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(CallError)
    expect(failure).toMatchObject({
      code: 'failed-precondition',
      message: '1 finding uses this template: it can be deleted once no finding does.',
    })
  })
})
