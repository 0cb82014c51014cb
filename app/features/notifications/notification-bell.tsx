import { useState } from 'react'
import { Link } from '@tanstack/react-router'
import { IconBell } from '@tabler/icons-react'
import { Popover } from 'radix-ui'
import styled, { keyframes } from 'styled-components'
import type { AppNotification } from '#domain/notifications.ts'
import { useLiveData, type LiveData } from '~/core/live-data'
import { linkOf } from '~/core/search-params'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { notify } from '~/ui/notifications/notifications'
import { headerTrigger } from '~/ui/menu'
import { floating } from '~/ui/surface'
import { layers, offsets, timings } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { LocalTime } from '~/ui/local-time'
import type { NotificationsView } from './notifications-live'

const fadeIn = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`

const Trigger = styled.button`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  ${headerTrigger}
`

const Count = styled.span`
  position: absolute;
  top: -4px;
  right: -4px;
  min-width: 20px;
  height: 20px;
  padding: 0 5px;
  border-radius: 999px;
  background: var(--color-danger);
  color: #fff;
  font-size: 12px;
  font-weight: 700;
  line-height: 20px;
  text-align: center;
`

const Content = styled(Popover.Content)`
  z-index: ${layers.popover};
  width: min(380px, calc(100vw - 16px));
  max-height: min(520px, calc(100vh - 96px));
  display: flex;
  flex-direction: column;
  ${floating('near')}
  animation: ${fadeIn} ${timings.popoverFade}ms ease-out;
`

const Head = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  padding: 12px 14px;
  border-bottom: 1px solid var(--color-border);

  h2 {
    margin: 0;
    font-size: 15px;
  }
`

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 6px;
  overflow-y: auto;

  a {
    display: grid;
    gap: 2px;
    padding: 8px 10px;
    border-radius: 8px;
    color: inherit;
    text-decoration: none;
  }
  a:hover,
  a:focus-visible {
    background: var(--color-primary-soft);
  }
  a[data-unread] strong::before {
    content: '';
    display: inline-block;
    width: 8px;
    height: 8px;
    margin-right: 6px;
    border-radius: 50%;
    background: var(--color-primary);
  }
  span,
  time {
    color: var(--color-text-muted);
    font-size: 13px;
  }
`

const Cap = styled.p`
  margin: 0;
  padding: 0 14px 12px;
  font-size: 14px;
  color: var(--color-text-muted);
`

const Empty = styled.div`
  padding: 16px 14px;
  color: var(--color-text-muted);
`

/** Only paths of this site: a notification cannot send anyone elsewhere. */
const sameSite = (link: string) => (link.startsWith('/') && !link.startsWith('//') ? link : '/')

export function NotificationList({
  live,
  onMarkAllRead,
  onOpen,
}: {
  live: LiveData<NotificationsView>
  onMarkAllRead: () => void
  /** A notification's link was followed. */
  onOpen: (notification: AppNotification) => void
}) {
  const list = live.data?.items ?? []
  const unread = live.data?.unread ?? 0
  return (
    <>
      <Head>
        <h2 id="notifications-title">Notifications</h2>
        <Button type="button" $variant="secondary" disabled={unread === 0} onClick={onMarkAllRead}>
          Mark all read
        </Button>
      </Head>
      {live.status !== 'ready' ? (
        <Empty>
          <LiveStatus live={live} what="your notifications" />
        </Empty>
      ) : list.length === 0 ? (
        <Empty>Nothing yet. You will hear here when a scan is published or a finding needs you.</Empty>
      ) : (
        <List aria-labelledby="notifications-title">
          {list.map((n) => (
            <li key={n.id}>
              <Link {...linkOf(sameSite(n.link))} data-unread={n.read ? undefined : ''} onClick={() => onOpen(n)}>
                <strong>
                  {n.title}
                  {!n.read && <VisuallyHidden> (unread)</VisuallyHidden>}
                </strong>
                {n.body && <span>{n.body}</span>}
                <LocalTime at={n.createdAt} />
              </Link>
            </li>
          ))}
        </List>
      )}
      {live.data?.more && (
        // As ui/list-cap says it, kept inline: the bell is on every page's first load.
        <Cap role="note">
          The {list.length} most recent notifications are shown; there are more.
          {unread > list.filter((n) => !n.read).length && ' Mark all read covers the older ones too.'}
        </Cap>
      )}
    </>
  )
}

const live = () => import('./notifications-live')

/** The header's bell: the unread count, live, and the latest notifications in a popover. */
export function NotificationBell({ uid }: { uid: string }) {
  const hydrated = useHydrated()
  const [open, setOpen] = useState(false)
  const notifications = useLiveData(() => live().then((m) => m.watchNotifications(uid)), [uid])
  const count = notifications.data?.unread ?? 0
  const shownUnread = (notifications.data?.items ?? []).filter((n) => !n.read)

  const markAllRead = async () => {
    try {
      const m = await live()
      // Beyond the listed ones, the older unread are found on the server.
      await (count > shownUnread.length ? m.markAllRead(uid) : m.markRead(shownUnread.map((n) => n.id)))
    } catch {
      notify({ tone: 'error', title: 'Not marked as read', message: 'Please try again.' })
    }
  }

  // Opened: read. The listener brings the change back, and the count goes.
  const opened = (notification: AppNotification) => {
    setOpen(false)
    if (notification.read) return
    live()
      .then((m) => m.markRead([notification.id]))
      .catch(() => notify({ tone: 'error', title: 'Not marked as read', message: 'Please try again.' }))
  }

  const label = count === 0 ? 'Notifications' : `Notifications, ${count} unread`
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <Trigger type="button" aria-label={label} disabled={!hydrated} data-testid="notification-bell">
          <IconBell size={20} aria-hidden="true" />
          {count > 0 && (
            <Count aria-hidden="true" data-testid="notification-count">
              {count > 99 ? '99+' : count}
            </Count>
          )}
        </Trigger>
      </Popover.Trigger>
      <Popover.Portal>
        <Content align="end" sideOffset={offsets.popover} collisionPadding={8} aria-labelledby="notifications-title">
          <NotificationList live={notifications} onMarkAllRead={() => void markAllRead()} onOpen={opened} />
        </Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
