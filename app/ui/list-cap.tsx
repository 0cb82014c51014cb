// The line under a list that shows only part of what exists: how many are shown, in which order,
// and either a button for the next ones or where to find (or how to narrow to) the rest. Lists that
// grow with use are never cut silently.
import type { ReactNode } from 'react'
import styled from 'styled-components'
import { formatNumber } from '#domain/numbers.ts'
import { Button } from './button'

const Line = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 12px;
  margin: 8px 0 0;
  font-size: 14px;
  color: var(--color-text-muted);

  p {
    margin: 0;
  }
`

/**
 * Shown when the list holds more than it shows (`more` true, or a `onMore` to fetch them): "The
 * 30 most recent scans are shown." Nothing otherwise.
 */
export function ListCap({
  shown,
  what,
  order = 'most recent',
  more = false,
  onMore,
  loading = false,
  children,
}: {
  /** How many are shown. */
  shown: number
  /** The plural noun: "scans". */
  what: string
  /** How the shown ones were chosen: "most recent", "soonest due". */
  order?: string
  /** The query holds more than are shown (with `onMore`, implied). */
  more?: boolean
  /** Adds the next ones. */
  onMore?: (() => void) | null
  loading?: boolean
  /** Where the rest are, or how to narrow to them. */
  children?: ReactNode
}) {
  if (!more && !onMore) return null
  return (
    <Line role="note" data-list-cap={what}>
      <p>
        The {formatNumber(shown)} {order} {what} are shown{onMore ? '' : '; there are more'}.{children ? ' ' : ''}
        {children}
      </p>
      {onMore && (
        <Button type="button" $variant="secondary" onClick={onMore} disabled={loading}>
          {loading ? 'Loading more…' : 'Show more'}
        </Button>
      )}
    </Line>
  )
}
