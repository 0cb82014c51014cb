import { notificationsVisible } from '../theme'

export type NotificationTone = 'info' | 'success' | 'error'

export interface Notification {
  id: number
  title: string
  message?: string
  tone: NotificationTone
}

export interface NotificationState {
  visible: Notification[]
  queued: Notification[]
}

/**
 * At most five notifications show at once; later ones wait in order and move up as shown ones
 * close. Pure, so the rules are testable without a DOM.
 */
export function createNotificationQueue(limit = notificationsVisible) {
  let state: NotificationState = { visible: [], queued: [] }
  let nextId = 1
  let shown = false
  const listeners = new Set<() => void>()
  const publish = (next: NotificationState) => {
    state = next
    for (const listener of listeners) listener()
  }

  return {
    getState: () => state,
    /** Whether any notification was ever pushed: until then nothing needs the toasts' code. */
    hasShown: () => shown,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    push(notification: Omit<Notification, 'id'>): number {
      const item = { ...notification, id: nextId++ }
      shown = true
      publish(
        state.visible.length < limit
          ? { visible: [...state.visible, item], queued: state.queued }
          : { visible: state.visible, queued: [...state.queued, item] },
      )
      return item.id
    },
    dismiss(id: number): void {
      const visible = state.visible.filter((n) => n.id !== id)
      const queued = state.queued.filter((n) => n.id !== id)
      const promoted = queued.slice(0, Math.max(0, limit - visible.length))
      publish({ visible: [...visible, ...promoted], queued: queued.slice(promoted.length) })
    },
  }
}

export type NotificationQueue = ReturnType<typeof createNotificationQueue>
