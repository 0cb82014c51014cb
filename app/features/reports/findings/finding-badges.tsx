import styled, { css } from 'styled-components'
import { findingStatusLabels, isOpenStatus, type FindingStatus } from '#domain/findings.ts'
import { colors } from '~/ui/theme'
import { slaText, type FindingRow } from './findings-query'

const pill = css`
  display: inline-block;
  vertical-align: middle;
  padding: 0 8px;
  border: 1px solid;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  line-height: 20px;
  white-space: nowrap;
  max-width: 100%;
  overflow: hidden;
  text-overflow: ellipsis;
`

const tint = (hue: string) => css`
  background: color-mix(in srgb, ${hue} 10%, transparent);
  border-color: color-mix(in srgb, ${hue} 40%, transparent);
  color: color-mix(in srgb, ${hue} 75%, ${colors.text});
`

const statusHue = (status: FindingStatus) =>
  status === 'fixed' ? colors.success : isOpenStatus(status) ? colors.primary : colors.textMuted

const StatusPill = styled.span<{ $hue: string }>`
  ${pill}
  ${({ $hue }) => tint($hue)}
`

/** A finding's status in words (the colour only groups open, fixed and set aside). */
export function StatusBadge({ status, regression = false }: { status: FindingStatus; regression?: boolean }) {
  return (
    <StatusPill $hue={statusHue(status)} data-status={status}>
      {findingStatusLabels[status]}
      {regression && status === 'reopened' ? ' (regression)' : ''}
    </StatusPill>
  )
}

const slaHue: Record<FindingRow['slaState'], string> = {
  none: colors.textMuted,
  ok: colors.success,
  due_soon: colors.warning,
  breached: colors.danger,
  paused: colors.textMuted,
}

const SlaText = styled.span<{ $hue: string }>`
  font-size: 13px;
  font-weight: 600;
  white-space: nowrap;
  color: color-mix(in srgb, ${({ $hue }) => $hue} 80%, ${colors.text});
`

/** A clock paused past its due date reads as breached does. */
const overdue = (row: Pick<FindingRow, 'slaState' | 'slaDaysLeft'>) => row.slaState === 'paused' && (row.slaDaysLeft ?? 0) < 0

/** The SLA's state and the days left, in words. */
export function SlaLabel({ row }: { row: Pick<FindingRow, 'slaState' | 'slaDaysLeft'> }) {
  return (
    <SlaText $hue={overdue(row) ? colors.danger : slaHue[row.slaState]} data-sla={row.slaState}>
      {slaText(row)}
    </SlaText>
  )
}
