import styled from 'styled-components'
import {
  DEFAULT_NOTIFICATION_CHOICES,
  NOTIFICATION_TYPES,
  notificationTypeLabels,
  type NotificationChannel,
  type NotificationChoices,
  type NotificationType,
} from '#domain/notifications.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { AutosaveStatus } from '~/ui/autosave/autosave-status'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { surface } from '~/ui/surface'
import { useHydrated } from '~/ui/use-hydrated'

const Section = styled.section`
  ${surface}
  max-width: 640px;
  padding: 20px 24px;
  margin-bottom: 24px;
  display: grid;
  gap: 12px;

  h2 {
    margin: 0;
    font-size: 17px;
  }
  p {
    margin: 0;
    font-size: 14px;
    color: var(--color-text-muted);
  }
`

const Heading = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;

  th,
  td {
    padding: 8px 4px;
    border-top: 1px solid var(--color-border);
    text-align: left;
  }
  thead th {
    border-top: none;
    color: var(--color-text-muted);
    font-size: 13px;
    font-weight: 600;
  }
  th:not(:first-child),
  td {
    width: 96px;
    text-align: center;
  }
  input {
    width: 18px;
    height: 18px;
    accent-color: var(--color-primary);
    cursor: pointer;
  }
`

const channelLabels: Record<NotificationChannel, string> = { inApp: 'In the app', email: 'By email' }

const sameChoices = (a: NotificationChoices, b: NotificationChoices) =>
  NOTIFICATION_TYPES.every((type) => a[type].inApp === b[type].inApp && a[type].email === b[type].email)

const live = () => import('~/core/workspace-live')

/** Which notifications reach the person, in the app and by email; each tick saves at once. */
export function NotificationSettings({ session, workspace }: { session: Session; workspace: Workspace }) {
  const hydrated = useHydrated()
  const field = useAutosave<NotificationChoices>({
    saved: workspace.preferences.notifications ?? DEFAULT_NOTIFICATION_CHOICES,
    save: async (notifications) => (await live()).savePreferences(session, { notifications }),
    variant: 'text',
    equals: sameChoices,
  })

  const choose = (type: NotificationType, channel: NotificationChannel, on: boolean) => {
    field.type({ ...field.value, [type]: { ...field.value[type], [channel]: on } })
    // A tick is a finished choice: no pause to wait for.
    field.flush()
  }

  return (
    <Section aria-labelledby="notification-settings-heading">
      <Heading>
        <h2 id="notification-settings-heading">Notifications</h2>
        <AutosaveStatus status={field.status} onAccept={field.accept} onReject={field.reject} />
      </Heading>
      <p>Choose what you hear about for the companies you work with. Emails go to {session.email}.</p>
      {field.status === 'failed' && field.error && <p role="alert">{field.error}</p>}
      <Table>
        <thead>
          <tr>
            <th scope="col">When</th>
            {(['inApp', 'email'] as const).map((channel) => (
              <th key={channel} scope="col">
                {channelLabels[channel]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_TYPES.map((type) => (
            <tr key={type}>
              <th scope="row">{notificationTypeLabels[type]}</th>
              {(['inApp', 'email'] as const).map((channel) => (
                <td key={channel}>
                  <input
                    type="checkbox"
                    aria-label={`${notificationTypeLabels[type]}: ${channelLabels[channel].toLowerCase()}`}
                    checked={field.value[type][channel]}
                    disabled={!hydrated || field.status === 'conflict'}
                    onChange={(event) => choose(type, channel, event.target.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </Section>
  )
}
