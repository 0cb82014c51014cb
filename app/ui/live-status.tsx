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
 * The words for data not there yet, by what the page does to get it: it loads a list or a record,
 * or it checks something (a link) with the server. Neither ever says "none" or "not found": only
 * the server's answer does, and the page shows that answer itself.
 */
const WORDS = {
  load: { loading: 'Loading', failed: 'could not be loaded. Check your connection and retry.' },
  check: { loading: 'Checking', failed: 'could not be checked just now: it may well be fine. Retry in a moment.' },
} as const

export type LiveAction = keyof typeof WORDS

/**
 * What a page shows while live data is not there: "Loading <what>…", or "<What> could not be
 * loaded." with a retry ("Checking…" and "could not be checked" for a check). Shows nothing once
 * the data is ready.
 */
export function LiveStatus({
  live,
  what,
  action = 'load',
}: {
  live: { status: 'loading' | 'ready' | 'failed'; retry(): void }
  what: string
  action?: LiveAction
}) {
  if (live.status === 'ready') return null
  const words = WORDS[action]
  if (live.status === 'loading')
    return (
      <Line role="status">
        {words.loading} {what}…
      </Line>
    )
  return (
    <Failed role="alert">
      <p>
        {capitalised(what)} {words.failed}
      </p>
      <Button type="button" $variant="secondary" onClick={live.retry}>
        Retry
      </Button>
    </Failed>
  )
}
