import styled from 'styled-components'
import { surface } from '~/ui/surface'

export interface Kpi {
  label: string
  value: string
  /** One more line: a share, a change, a breakdown. */
  note?: string
  tone?: 'danger' | 'warning' | 'success'
}

const Grid = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(170px, 1fr));
  gap: 12px;
  margin: 0;
`

const Card = styled.div<{ $tone?: Kpi['tone'] }>`
  ${surface}
  padding: 14px 16px;
  border-left: 4px solid ${({ $tone }) => ($tone ? `var(--color-${$tone})` : 'var(--color-border)')};

  dt {
    font-size: 13px;
    color: var(--color-text-muted);
  }
  dd {
    margin: 4px 0 0;
    font-size: 24px;
    font-weight: 700;
    font-variant-numeric: tabular-nums;
  }
  dd + dd {
    font-size: 13px;
    font-weight: 400;
    color: var(--color-text-muted);
  }
`

/** Key figures: each a label, a number and an optional note. */
export function KpiCards({ kpis, label }: { kpis: readonly Kpi[]; label: string }) {
  return (
    <Grid aria-label={label}>
      {kpis.map((kpi) => (
        <Card key={kpi.label} $tone={kpi.tone} data-testid="kpi">
          <dt>{kpi.label}</dt>
          <dd>{kpi.value}</dd>
          {kpi.note && <dd>{kpi.note}</dd>}
        </Card>
      ))}
    </Grid>
  )
}
