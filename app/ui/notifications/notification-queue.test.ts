import { describe, expect, it } from 'vitest'
import { createNotificationQueue } from './notification-queue'

describe('notification queue', () => {
  it('shows five at once and queues the sixth until one closes', () => {
    const queue = createNotificationQueue()
    const ids = [1, 2, 3, 4, 5, 6].map((n) => queue.push({ title: `n${n}`, tone: 'info' }))
    expect(queue.getState().visible.map((n) => n.title)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5'])
    expect(queue.getState().queued.map((n) => n.title)).toEqual(['n6'])

    queue.dismiss(ids[1]!)
    expect(queue.getState().visible.map((n) => n.title)).toEqual(['n1', 'n3', 'n4', 'n5', 'n6'])
    expect(queue.getState().queued).toEqual([])
  })

  it('drops a queued notification dismissed before it showed, and tells subscribers of each change', () => {
    const queue = createNotificationQueue(1)
    expect(queue.hasShown()).toBe(false)
    let changes = 0
    queue.subscribe(() => changes++)
    const first = queue.push({ title: 'a', tone: 'info' })
    const second = queue.push({ title: 'b', tone: 'error' })
    queue.dismiss(second)
    expect(queue.getState()).toEqual({ visible: [{ id: first, title: 'a', tone: 'info' }], queued: [] })
    queue.dismiss(first)
    expect(queue.getState()).toEqual({ visible: [], queued: [] })
    expect(queue.hasShown()).toBe(true)
    expect(changes).toBe(4)
  })
})
