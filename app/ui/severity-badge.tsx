import styled, { css } from 'styled-components'
import { severityLabels, type Severity } from '#domain/template-vocabulary.ts'
import { colors } from './theme'

/**
 * Each severity's hue, from the palette so that it follows the colour scheme. Critical is filled;
 * the others are tinted, their text mixed towards the text colour: darker on light, lighter on
 * dark, so it stays readable on its tint in both schemes.
 */
const hues: Record<Exclude<Severity, 'critical'>, string> = {
  high: colors.danger,
  medium: `color-mix(in srgb, ${colors.danger} 50%, ${colors.warning})`,
  low: colors.warning,
  info: colors.textMuted,
}

const tinted = (hue: string) => css`
  background: color-mix(in srgb, ${hue} 12%, transparent);
  border-color: color-mix(in srgb, ${hue} 45%, transparent);
  color: color-mix(in srgb, ${hue} 80%, ${colors.text});
`

const looks: Record<Severity, ReturnType<typeof css>> = {
  critical: css`
    background: ${colors.danger};
    border-color: ${colors.danger};
    color: ${colors.surface};
  `,
  high: tinted(hues.high),
  medium: tinted(hues.medium),
  low: tinted(hues.low),
  info: tinted(hues.info),
}

const Badge = styled.span<{ $severity: Severity }>`
  display: inline-flex;
  align-items: center;
  min-height: 22px;
  padding: 0 8px;
  border: 1px solid;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 700;
  line-height: 1;
  white-space: nowrap;
  ${({ $severity }) => looks[$severity]}
`

/** A finding's severity in words on its colour, so colour is never the only cue. */
export function SeverityBadge({ severity, label = severityLabels[severity] }: { severity: Severity; label?: string }) {
  return (
    <Badge $severity={severity} data-severity={severity}>
      {label}
    </Badge>
  )
}
