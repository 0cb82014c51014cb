// callLazily loads `./call` (and with it the Firebase SDK) on the first call, not when imported,
// and hands the call and its failure on as they are.
import { describe, expect, it, vi } from 'vitest'

const sdk = vi.hoisted(() => ({ loaded: 0 }))

vi.mock('./call', () => {
  sdk.loaded += 1
  return {
    call: async (name: string, data: unknown) => {
      if (name === 'deleteLocation') throw new Error('refused')
      return { name, data }
    },
    callErrorOf: (error: unknown) => ({ code: 'unknown', message: `in words: ${String(error)}` }),
  }
})

const { callErrorOfLazily, callLazily } = await import('./call-lazily')

describe('callLazily', () => {
  it('loads the call module on the first call only', async () => {
    expect(sdk.loaded).toBe(0)
    expect(await callLazily('saveService', { serviceId: 'web' } as never)).toEqual({ name: 'saveService', data: { serviceId: 'web' } })
    await callLazily('saveService', { serviceId: 'api' } as never)
    expect(sdk.loaded).toBe(1)
  })

  it('throws what the call throws', async () => {
    await expect(callLazily('deleteLocation', { id: 'x' })).rejects.toThrow('refused')
  })

  it('words a failure through callErrorOf', async () => {
    expect((await callErrorOfLazily('boom')).message).toBe('in words: boom')
  })
})
