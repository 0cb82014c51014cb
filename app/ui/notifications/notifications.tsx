import { lazy, Suspense, useSyncExternalStore } from 'react'
import { createNotificationQueue, type Notification } from './notification-queue'

const queue = createNotificationQueue()

/** Shows a notification in the bottom-right corner; it closes by itself after four seconds. */
export const notify = (notification: Omit<Notification, 'id'>) => queue.push(notification)

// The toasts' code comes with the first notification: most pages never show one.
const ToastStack = lazy(() => import('./toast-stack').then((m) => ({ default: m.ToastStack })))
const nothingShown = () => false

export function Notifications() {
  const state = useSyncExternalStore(queue.subscribe, queue.getState, queue.getState)
  const shown = useSyncExternalStore(queue.subscribe, queue.hasShown, nothingShown)
  if (!shown) return null
  return (
    <Suspense fallback={null}>
      <ToastStack visible={state.visible} onClosed={queue.dismiss} />
    </Suspense>
  )
}
