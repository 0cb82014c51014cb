import { describe, expect, it, vi } from 'vitest'
import { SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_MESSAGE_REQUIRED, supportMessages } from '#domain/support.ts'
import { submitSupport } from './support-submit'

describe('submitSupport', () => {
  it('sends the trimmed message and announces success', async () => {
    const send = vi.fn(async () => ({ success: true }))
    expect(await submitSupport({ message: '  Hello  ', request_type: 'bug' }, send)).toEqual({ kind: 'sent', notice: supportMessages.sent })
    expect(send).toHaveBeenCalledWith({ message: 'Hello', request_type: 'bug' })
  })

  it('shows the server failure text when the server answers success false', async () => {
    const outcome = await submitSupport({ message: 'Hello', request_type: 'question' }, async () => ({ success: false }))
    expect(outcome).toEqual({ kind: 'failed', notice: 'Error: Server Failed to send message. Please try again.' })
  })

  it('shows the failure text when the call throws', async () => {
    const outcome = await submitSupport({ message: 'Hello', request_type: 'feature' }, async () => {
      throw new Error('functions/internal')
    })
    expect(outcome).toEqual({ kind: 'failed', notice: 'Failed to send message. Please try again.' })
  })

  it('does not call the server for an empty or oversized message', async () => {
    const send = vi.fn(async () => ({ success: true }))
    expect(await submitSupport({ message: '  ', request_type: 'bug' }, send)).toEqual({ kind: 'invalid', error: SUPPORT_MESSAGE_REQUIRED })
    expect((await submitSupport({ message: 'a'.repeat(SUPPORT_MESSAGE_MAX_LENGTH + 1), request_type: 'bug' }, send)).kind).toBe('invalid')
    expect(send).not.toHaveBeenCalled()
  })
})
