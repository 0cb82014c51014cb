import { Suspense, useSyncExternalStore } from 'react'
import { createNotificationQueue, type Notification } from './notification-queue'
import { lazyPart } from '../lazy-part'

const queue = createNotificationQueue()

/** Shows a notification in the bottom-right corner; it closes by itself after four seconds. */
export const notify = (notification: Omit<Notification, 'id'>) => queue.push(notification)

// The toasts' code is not part of the first load: most pages never show one.
const loadToastStack = () => import('./toast-stack')
const ToastStack = lazyPart(() => loadToastStack().then((m) => ({ default: m.ToastStack })))

/**
 * Fetches the toasts' code ahead of the first notification, for pages where people act: one shown
 * while the browser is offline (an export that could not read the database) could not fetch it then.
 */
export const preloadNotifications = (): void => void loadToastStack().catch(() => {})
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
