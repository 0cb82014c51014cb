import type { ReactNode } from 'react'
import { IconX } from '@tabler/icons-react'
import { Dialog as RadixDialog } from 'radix-ui'
import styled, { keyframes } from 'styled-components'
import { floating } from './surface'
import { layers, timings } from './theme'

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`
const popIn = keyframes`
  from { opacity: 0; transform: translate(-50%, -48%) scale(0.97); }
  to { opacity: 1; transform: translate(-50%, -50%) scale(1); }
`

const Overlay = styled(RadixDialog.Overlay)`
  position: fixed;
  inset: 0;
  z-index: ${layers.modal};
  background: rgb(0 0 0 / 0.45);
  animation: ${fadeIn} ${timings.modalTransition}ms ease-out;
`

const Content = styled(RadixDialog.Content)<{ $wide: boolean }>`
  position: fixed;
  top: 50%;
  left: 50%;
  z-index: ${layers.modal};
  transform: translate(-50%, -50%);
  width: min(${({ $wide }) => ($wide ? '860px' : '440px')}, calc(100vw - 32px));
  /* A long dialog (a finding's evidence) scrolls inside instead of running off the screen. */
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: 28px;
  ${floating('far')}
  animation: ${popIn} ${timings.modalTransition}ms ease-out;

  /* Focus lands on the panel itself when it has no field; its outline would frame the whole dialog. */
  &:focus-visible {
    outline: none;
  }
`

const Close = styled(RadixDialog.Close)`
  position: absolute;
  top: 14px;
  right: 14px;
  display: inline-grid;
  place-items: center;
  width: 36px;
  height: 36px;
  border: none;
  border-radius: 8px;
  background: none;
  color: var(--color-text-muted);
  cursor: pointer;

  &:hover {
    background: var(--color-primary-soft);
    color: var(--color-text);
  }
  &:focus-visible {
    outline: 2px solid var(--color-focus);
    outline-offset: 1px;
  }
`

const Title = styled(RadixDialog.Title)`
  display: flex;
  align-items: center;
  gap: 8px;
  margin: 0 0 8px;
  padding-right: 36px;
  font-size: 20px;
`

const Description = styled(RadixDialog.Description)`
  margin: 0 0 18px;
  color: var(--color-text-muted);
`

/** The row of buttons at the foot of a dialog, the main action last. */
export const DialogActions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 8px;
`

/**
 * A modal dialog: focus stays inside while open and returns where it was when it closes.
 * `dismissible: false` keeps it open until its own action completes (no Escape, no outside click).
 * `wide` is for reading (a record in full) rather than a short form. A dialog opened by something
 * other than a Radix trigger names where focus goes back on closing (`returnFocus`, when still there).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  titleAddon,
  description,
  dismissible = true,
  wide = false,
  returnFocus,
  children,
}: {
  open: boolean
  onOpenChange?: (open: boolean) => void
  title: string
  titleAddon?: ReactNode
  description: string
  dismissible?: boolean
  wide?: boolean
  returnFocus?: () => HTMLElement | null
  children: ReactNode
}) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault()
  }
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <Overlay />
        <Content
          $wide={wide}
          onCloseAutoFocus={(event) => {
            const target = returnFocus?.()
            if (!target?.isConnected) return
            event.preventDefault()
            target.focus()
          }}
          onEscapeKeyDown={(event) => {
            // An open list in the dialog (a combobox's) takes Escape first: it closes, the dialog stays.
            const target = event.target
            if (target instanceof HTMLElement && target.getAttribute('aria-expanded') === 'true') event.preventDefault()
            else block(event)
          }}
          onPointerDownOutside={block}
          onInteractOutside={block}
        >
          <Title>
            {title}
            {titleAddon}
          </Title>
          <Description>{description}</Description>
          {children}
          {/* Last in the tab order, so focus still starts at the dialog's own first field. */}
          {dismissible && (
            <Close aria-label="Close">
              <IconX size={18} aria-hidden="true" />
            </Close>
          )}
        </Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  )
}
