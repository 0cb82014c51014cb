import type { ReactNode } from 'react'
import { Popover as RadixPopover } from 'radix-ui'
import styled, { keyframes } from 'styled-components'
import { floating } from './surface'
import { layers, offsets, timings } from './theme'

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`

const Content = styled(RadixPopover.Content)`
  z-index: ${layers.popover};
  max-width: min(360px, calc(100vw - 16px));
  padding: 14px 16px;
  ${floating('near')}
  font-size: 14px;
  animation: ${fadeIn} ${timings.popoverFade}ms ease-out;
`

export interface PopoverPanelProps {
  trigger: ReactNode
  label: string
  open: boolean
  onOpenChange: (open: boolean) => void
  children: ReactNode
}

/** A popover that opens below its trigger (flipping only when there is no room), 8 px away. */
export function PopoverPanel({ trigger, label, open, onOpenChange, children }: PopoverPanelProps) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <Content side="bottom" sideOffset={offsets.popover} collisionPadding={8} aria-label={label}>
          {children}
        </Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  )
}
