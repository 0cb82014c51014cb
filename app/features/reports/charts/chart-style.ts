import { css } from 'styled-components'
import { colors } from '~/ui/theme'
import { seriesColors, severityColor } from './palette'
import { SEVERITIES } from '#domain/template-vocabulary.ts'

/**
 * The charts in the theme's colours: Recharts' SVG and the bar lists' bars. The SVG keeps its
 * fixed coordinate system (viewBox) and scales to the width it is given, so the server draws the
 * same picture the browser shows.
 */
export const chartStyle = css`
  .recharts-wrapper {
    width: 100% !important;
    height: auto !important;
  }
  .recharts-surface {
    display: block;
    width: 100%;
    height: auto;
    overflow: visible;
  }
  .recharts-cartesian-grid line {
    stroke: ${colors.border};
  }
  .recharts-cartesian-axis-line,
  .recharts-cartesian-axis-tick-line {
    stroke: ${colors.border};
  }
  .chart-tick {
    fill: ${colors.textMuted};
    font-size: 12px;
  }
  .recharts-tooltip-wrapper .recharts-default-tooltip {
    background: ${colors.surfaceRaised} !important;
    border-color: ${colors.border} !important;
    color: ${colors.text};
    border-radius: 8px;
  }
  .recharts-tooltip-cursor {
    fill: ${colors.primarySoft};
    stroke: none;
  }
  ${seriesColors.map(
    (color, i) => css`
      .series-${i} .recharts-rectangle,
      .series-${i} .recharts-dot {
        fill: ${color};
      }
      .series-${i} .recharts-curve {
        stroke: ${color};
      }
      .legend-${i}, .bar-list .series-${i} {
        background: ${color};
      }
    `,
  )}
  ${SEVERITIES.map(
    (severity) => css`
      .series-${severity} .recharts-rectangle,
      .series-${severity} .recharts-dot {
        fill: ${severityColor[severity]};
      }
      .series-${severity} .recharts-curve {
        stroke: ${severityColor[severity]};
      }
      .legend-${severity}, .bar-list .series-${severity} {
        background: ${severityColor[severity]};
      }
    `,
  )}
`
