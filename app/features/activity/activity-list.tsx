import styled from 'styled-components'
import { useLiveData } from '~/core/live-data'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { surface } from '~/ui/surface'
import { LocalTime } from '~/ui/local-time'

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

/** The user's recent activity (sign-ins and more), newest first, as it happens. */
export function ActivityList({ uid }: { uid: string }) {
  const activity = useLiveData(() => import('./activity-live').then((live) => live.watchActivity(uid)), [uid])

  return (
    <Section aria-labelledby="activity-title" aria-busy={activity.status === 'loading'}>
      <h2 id="activity-title">Recent activity</h2>
      {activity.status !== 'ready' ? (
        <LiveStatus live={activity} what="your activity" />
      ) : activity.data.items.length === 0 ? (
        <Muted>No activity yet.</Muted>
      ) : (
        <>
          <List>
            {activity.data.items.map((event) => (
              <li key={event.id}>
                <span>{describe(event.type)}</span>
                {event.at !== null && <LocalTime at={event.at} />}
              </li>
            ))}
          </List>
          <ListCap shown={activity.data.items.length} what="events" more={activity.data.more} />
        </>
      )}
    </Section>
  )
}
