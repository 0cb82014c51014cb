import { Toast } from 'radix-ui'
import styled, { keyframes } from 'styled-components'
import { layers, sizes, timings } from '../theme'
import type { Notification } from './notification-queue'

const slideIn = keyframes`
  from { transform: translateX(calc(100% + 24px)); opacity: 0; }
  to { transform: translateX(0); opacity: 1; }
`
const fadeOut = keyframes`
  from { opacity: 1; }
  to { opacity: 0; }
`

const Viewport = styled(Toast.Viewport)`
  position: fixed;
  right: 0;
  bottom: 0;
  z-index: ${layers.overlay};
  display: flex;
  flex-direction: column;
  gap: 10px;
  width: ${sizes.notificationWidth}px;
  max-width: 100vw;
  margin: 0;
  padding: 24px;
  list-style: none;
  outline: none;
`

const toneColor = { info: 'var(--color-primary)', success: 'var(--color-success)', error: 'var(--color-danger)' } as const

const Item = styled(Toast.Root)<{ $tone: Notification['tone'] }>`
  max-height: ${sizes.notificationMaxHeight}px;
  overflow: auto;
  padding: 14px 16px;
  border-radius: 10px;
  border: 1px solid var(--color-border);
  border-left: 4px solid ${({ $tone }) => toneColor[$tone]};
  background: var(--color-surface-raised);
  color: var(--color-text);
  box-shadow: 0 8px 24px rgb(0 0 0 / 0.16);

  &[data-state='open'] {
    animation: ${slideIn} ${timings.notificationTransition}ms ease-out;
  }
  &[data-state='closed'] {
    animation: ${fadeOut} ${timings.notificationTransition}ms ease-in;
  }
`

const Title = styled(Toast.Title)`
  font-weight: 650;
`

const Description = styled(Toast.Description)`
  margin-top: 4px;
  font-size: 14px;
  color: var(--color-text-muted);
`

/** The shown notifications as Radix toasts; loaded with the first notification. */
export function ToastStack({ visible, onClosed }: { visible: Notification[]; onClosed: (id: number) => void }) {
  return (
    <Toast.Provider swipeDirection="right" duration={timings.notificationAutoClose}>
      {visible.map((n) => (
        <Item
          key={n.id}
          $tone={n.tone}
          type={n.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) setTimeout(() => onClosed(n.id), timings.notificationTransition)
          }}
        >
          <Title>{n.title}</Title>
          {n.message && <Description>{n.message}</Description>}
        </Item>
      ))}
      <Viewport label="Notifications ({hotkey})" />
    </Toast.Provider>
  )
}
