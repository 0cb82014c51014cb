import type { ReactNode } from 'react'
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react'
import styled from 'styled-components'

export type OutcomeTone = 'success' | 'warning' | 'error'

const colour: Record<OutcomeTone, string> = {
  success: 'var(--color-success)',
  warning: 'var(--color-warning)',
  error: 'var(--color-danger)',
}

const Box = styled.div<{ $tone: OutcomeTone }>`
  display: flex;
  gap: 10px;
  align-items: flex-start;
  padding: 10px 12px;
  border: 1px solid ${({ $tone }) => colour[$tone]};
  border-left-width: 4px;
  border-radius: 8px;
  background: color-mix(in srgb, ${({ $tone }) => colour[$tone]} 9%, var(--color-surface));
  color: var(--color-text);
  font-size: 14px;
  line-height: 1.45;

  svg {
    flex: none;
    margin-top: 1px;
    color: ${({ $tone }) => colour[$tone]};
  }
  p {
    margin: 0;
  }
  p + p {
    margin-top: 4px;
    color: var(--color-text-muted);
  }
`

const icons = { success: IconCircleCheck, warning: IconAlertTriangle, error: IconCircleX }

/**
 * What a form's request came to, under the form: each tone has its own colour and icon, errors
 * are announced at once (alert), success and warnings politely (status). `next` says what to do.
 */
export function OutcomeMessage({ tone, children, next }: { tone: OutcomeTone; children: ReactNode; next?: ReactNode }) {
  const Icon = icons[tone]
  return (
    <Box $tone={tone} role={tone === 'error' ? 'alert' : 'status'} data-tone={tone}>
      <Icon size={18} aria-hidden="true" />
      <div>
        <p>{children}</p>
        {next && <p>{next}</p>}
      </div>
    </Box>
  )
}
