import { useId } from 'react'
import styled from 'styled-components'
import { comparable } from '#domain/scan-comparison.ts'
import { latestWholeServiceScan, scopeTargets, type Scan } from '#domain/scans.ts'
import { Field, Label, Select } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { useTimeFormat } from '~/ui/local-time'

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px 20px;
  align-items: flex-end;
  margin-bottom: 20px;

  select {
    min-height: 38px;
    padding: 0 10px;
    min-width: 260px;
  }
`

// The date joins the title once the page runs in the browser (the reader's own format). A side scan
// says what it covered; only a whole-service scan is the latest (decision 0045).
const scanOption = (scan: Scan, latest: boolean, date: string) =>
  `${latest ? 'Latest: ' : scan.side ? `Side scan of ${scopeTargets(scan.scopeKey)}: ` : ''}${scan.title}${date ? ` (${date})` : ''}`

/** The scans a chart over scans draws with `scan`: the whole service's, or a side scan's own scope. */
export const sameSeries = (other: Scan, scan: Scan) => (scan.side ? other.side && comparable(other, scan) : !other.side)

/** Earlier scans the chosen one compares with: same service and scope, published before it. */
export const comparableWith = (scan: Scan, scans: readonly Scan[]) =>
  scans.filter((other) => other.id !== scan.id && comparable(other, scan) && (other.publishedAt ?? 0) <= (scan.publishedAt ?? 0))

/** Which scan the report shows (the latest by default, or any earlier) and which to compare it with. */
export function ScanPicker({
  scans,
  scanId,
  compareId,
  canCompare,
  onScan,
  onCompare,
}: {
  scans: readonly Scan[]
  scanId: string
  compareId: string | null
  canCompare: boolean
  onScan(id: string): void
  onCompare(id: string | null): void
}) {
  // A choice made before the page hydrates would be lost: the fields wait for it.
  const hydrated = useHydrated()
  const format = useTimeFormat()
  const scanField = useId()
  const compareField = useId()
  const latest = latestWholeServiceScan(scans)
  const scan = scans.find((s) => s.id === scanId) ?? latest!
  const earlier = comparableWith(scan, scans)
  return (
    <Bar>
      <Field>
        <Label htmlFor={scanField}>Scan</Label>
        <Select id={scanField} value={scan.id} onChange={(event) => onScan(event.target.value)} disabled={!hydrated}>
          {scans.map((s) => (
            <option key={s.id} value={s.id}>
              {scanOption(s, s.id === latest?.id, format(s.publishedAt ?? s.startedAt))}
            </option>
          ))}
        </Select>
      </Field>
      {canCompare && (
        <Field>
          <Label htmlFor={compareField}>Compare with</Label>
          <Select
            id={compareField}
            value={compareId ?? ''}
            onChange={(event) => onCompare(event.target.value || null)}
            disabled={!hydrated || earlier.length === 0}
          >
            <option value="">{earlier.length === 0 ? 'No earlier comparable scan' : 'No comparison'}</option>
            {earlier.map((s) => (
              <option key={s.id} value={s.id}>
                {scanOption(s, false, format(s.publishedAt ?? s.startedAt))}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </Bar>
  )
}
