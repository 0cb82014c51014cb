import { useEffect, useState } from 'react'
import styled from 'styled-components'
import { surface } from '~/ui/surface'
import type { ActivityEvent } from './activity-live'

const Section = styled.section`
  ${surface}
  max-width: 640px;
  padding: 20px 24px;

  h2 {
    font-size: 17px;
  }
`

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;

  li {
    display: flex;
    justify-content: space-between;
    gap: 16px;
    padding: 10px 0;
    border-top: 1px solid var(--color-border);
  }
  time {
    color: var(--color-text-muted);
    font-size: 14px;
  }
`

const Muted = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

const describe = (type: string) => (type === 'sign_in' ? 'Signed in' : type.replace(/_/g, ' '))

const formatWhen = (at: Date) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at)

/** The user's recent activity (sign-ins and more), newest first, as it happens. */
export function ActivityList({ uid }: { uid: string }) {
  const [events, setEvents] = useState<ActivityEvent[] | null>(null)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let stop: (() => void) | undefined
    let cancelled = false
    void import('./activity-live').then(({ watchActivity }) => {
      if (!cancelled) stop = watchActivity(uid, setEvents, () => setFailed(true))
    })
    return () => {
      cancelled = true
      stop?.()
    }
  }, [uid])

  return (
    <Section aria-labelledby="activity-title" aria-busy={events === null && !failed}>
      <h2 id="activity-title">Recent activity</h2>
      {failed ? (
        <Muted role="alert">Your activity could not be loaded.</Muted>
      ) : events === null ? (
        <Muted>Loading…</Muted>
      ) : events.length === 0 ? (
        <Muted>No activity yet.</Muted>
      ) : (
        <List>
          {events.map((event) => (
            <li key={event.id}>
              <span>{describe(event.type)}</span>
              {event.at && <time dateTime={event.at.toISOString()}>{formatWhen(event.at)}</time>}
            </li>
          ))}
        </List>
      )}
    </Section>
  )
}
