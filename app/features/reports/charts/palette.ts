// Chart colours from the theme's custom properties, so a chart follows light and dark without
// re-rendering. Recharts writes colours as SVG attributes, where custom properties do not
// apply; the chart styles set them with CSS on each series' class instead (see chart-style.ts).
import { SEVERITIES, type Severity } from '#domain/template-vocabulary.ts'
import { colors } from '~/ui/theme'

export const severityColor: Record<Severity, string> = {
  critical: `color-mix(in srgb, ${colors.danger} 80%, ${colors.text})`,
  high: colors.danger,
  medium: `color-mix(in srgb, ${colors.danger} 50%, ${colors.warning})`,
  low: colors.warning,
  info: colors.textMuted,
}

/** Colours of series that are not severities, in order. */
export const seriesColors = [
  colors.primary,
  colors.success,
  colors.warning,
  colors.danger,
  `color-mix(in srgb, ${colors.primary} 55%, ${colors.success})`,
  colors.textMuted,
] as const

export type SeriesColor = string

/** The class a series carries, whose colour chart-style.ts sets. */
export const seriesClass = (index: number) => `series-${index}`

export { SEVERITIES }
