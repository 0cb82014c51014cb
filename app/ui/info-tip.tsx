import { IconInfoCircle } from '@tabler/icons-react'
import { Tooltip } from 'radix-ui'
import styled, { keyframes } from 'styled-components'
import { layers, offsets, timings } from './theme'

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`

const Trigger = styled.button`
  display: inline-flex;
  padding: 2px;
  border: none;
  border-radius: 50%;
  background: none;
  color: var(--color-text-muted);
  cursor: help;
`

const Content = styled(Tooltip.Content)`
  z-index: ${layers.popover};
  max-width: 300px;
  padding: 8px 12px;
  border-radius: 8px;
  background: var(--color-text);
  color: var(--color-bg);
  font-size: 13px;
  line-height: 1.4;
  animation: ${fadeIn} ${timings.tooltipFade}ms ease-out;
`

/** An info icon that explains something on hover or keyboard focus. */
export function InfoTip({ label, text }: { label: string; text: string }) {
  return (
    <Tooltip.Provider delayDuration={200}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <Trigger type="button" aria-label={label}>
            <IconInfoCircle size={18} aria-hidden="true" />
          </Trigger>
        </Tooltip.Trigger>
        <Tooltip.Portal>
          <Content sideOffset={offsets.tooltip}>{text}</Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  )
}
