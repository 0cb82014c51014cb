import styled from 'styled-components'
import { Button } from './button'

const Line = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

const Failed = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;

  p {
    margin: 0;
    color: var(--color-text-muted);
  }
`

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * What a page shows while live data is not there: "Loading <what>…", or "<What> could not be
 * loaded." with a retry. Shows nothing once the data is ready.
 */
export function LiveStatus({ live, what }: { live: { status: 'loading' | 'ready' | 'failed'; retry(): void }; what: string }) {
  if (live.status === 'ready') return null
  if (live.status === 'loading') return <Line role="status">Loading {what}…</Line>
  return (
    <Failed role="alert">
      <p>{capitalised(what)} could not be loaded. Check your connection and retry.</p>
      <Button type="button" $variant="secondary" onClick={live.retry}>
        Retry
      </Button>
    </Failed>
  )
}
