import { IconCircleCheck, IconCircleX, IconLoader2, IconRefreshAlert } from '@tabler/icons-react'
import styled, { keyframes } from 'styled-components'
import { VisuallyHidden } from '../visually-hidden'
import type { AutosaveStatus as Status } from './autosave'

const spin = keyframes`
  to { transform: rotate(360deg); }
`

const Row = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 28px;
  font-size: 13px;
  color: var(--color-text-muted);
`

const Spinner = styled(IconLoader2)`
  animation: ${spin} 900ms linear infinite;
  @media (prefers-reduced-motion: reduce) {
    animation-duration: 3s;
  }
`

const Choice = styled.button`
  min-height: 28px;
  padding: 0 10px;
  border-radius: 6px;
  border: 1px solid var(--color-border);
  background: var(--color-surface);
  color: var(--color-text);
  font: inherit;
  font-size: 13px;
  font-weight: 600;
  cursor: pointer;
`

const Explained = styled.span`
  color: var(--color-danger);
  font-size: 13px;
  line-height: 1.3;
`

/** What each state says to someone who cannot see the icon, and as the icon's tooltip. */
export const autosaveStatusText: Record<Status, string> = {
  synced: 'Saved',
  pending: 'Waiting to save',
  saving: 'Saving',
  conflict: 'Changed elsewhere: keep the other value or yours?',
  rejected: 'Your value is kept here but not saved; edit it or press Enter to save it',
  failed: 'Not saved',
}

/**
 * The icon beside an autosaved field: spinner while typing or saving, refresh-alert with accept
 * and reject when the saved value changed elsewhere, green check in sync, red cross after a reject
 * or a failed save.
 */
export function AutosaveStatus({
  status,
  saved,
  onAccept,
  onReject,
}: {
  status: Status
  /** The other value, shown with the accept choice. */
  saved?: string
  onAccept(): void
  onReject(): void
}) {
  const text = autosaveStatusText[status]
  return (
    <Row data-autosave-status={status} title={text}>
      {(status === 'pending' || status === 'saving') && <Spinner size={18} aria-hidden="true" />}
      {status === 'synced' && <IconCircleCheck size={18} color="var(--color-success)" aria-hidden="true" />}
      {(status === 'rejected' || status === 'failed') && <IconCircleX size={18} color="var(--color-danger)" aria-hidden="true" />}
      {status === 'conflict' ? (
        <>
          <IconRefreshAlert size={18} color="var(--color-warning)" aria-hidden="true" />
          <span role="alert">Changed elsewhere{saved !== undefined && saved !== '' ? <> to “{saved}”</> : null}.</span>
          <Choice type="button" onClick={onAccept}>
            Accept
          </Choice>
          <Choice type="button" onClick={onReject}>
            Reject
          </Choice>
        </>
      ) : status === 'rejected' ? (
        // The red cross alone does not say what to do: the reason is shown, not only announced.
        <Explained role="status">{text}</Explained>
      ) : (
        <VisuallyHidden role="status">{text}</VisuallyHidden>
      )}
    </Row>
  )
}
