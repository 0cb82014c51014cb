// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { reportDatabaseReach, useConnection } from './connection'

afterEach(() => {
  reportDatabaseReach('snapshots', true)
  reportDatabaseReach('probe', true)
})

describe('the connection as the page shows it', () => {
  it('is offline while either the SDK’s snapshots or the host probe say the database is out of reach', () => {
    const { result } = renderHook(() => useConnection())
    expect(result.current).toBe('online')
    act(() => reportDatabaseReach('probe', false))
    expect(result.current).toBe('offline')
    act(() => reportDatabaseReach('snapshots', false))
    act(() => reportDatabaseReach('probe', true))
    expect(result.current).toBe('offline')
    act(() => reportDatabaseReach('snapshots', true))
    expect(result.current).toBe('online')
  })

  it('is offline while the browser says it has no network', () => {
    const { result } = renderHook(() => useConnection())
    const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!
    try {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false })
      act(() => void window.dispatchEvent(new Event('offline')))
      expect(result.current).toBe('offline')
    } finally {
      delete (navigator as { onLine?: boolean }).onLine
      Object.defineProperty(Navigator.prototype, 'onLine', onLine)
    }
    act(() => void window.dispatchEvent(new Event('online')))
    expect(result.current).toBe('online')
  })
})
