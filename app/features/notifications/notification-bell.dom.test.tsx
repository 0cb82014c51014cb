// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppNotification } from '#domain/notifications.ts'
import type { Watch } from '~/core/live-data'
import type { NotificationsView } from './notifications-live'

// The bell's listener module, driven by the test: what Firestore would send.
const listener = vi.hoisted(() => ({
  next: (_: unknown) => {},
  uid: '',
  marked: [] as string[][],
  allMarked: [] as string[],
}))
vi.mock('./notifications-live', () => ({
  watchNotifications:
    (uid: string): Watch<NotificationsView> =>
    (next) => {
      listener.uid = uid
      listener.next = next as (value: unknown) => void
      return () => {}
    },
  markRead: async (ids: string[]) => {
    listener.marked.push(ids)
  },
  markAllRead: async (uid: string) => {
    listener.allMarked.push(uid)
  },
}))

const { NotificationBell } = await import('./notification-bell')

afterEach(cleanup)

const notification = (id: string, over: Partial<AppNotification> = {}): AppNotification => ({
  id,
  uid: 'me',
  type: 'scan_published',
  company: 'acme',
  service: 'dast',
  title: `Title ${id}`,
  body: '',
  link: '/reports/dast',
  read: false,
  createdAt: Date.UTC(2026, 0, 5),
  ...over,
})

/** What the listener gives when these are all there is. */
const all = (items: AppNotification[]): NotificationsView => ({ items, more: false, unread: items.filter((n) => !n.read).length })

async function renderBell() {
  const rootRoute = createRootRoute({ component: () => <NotificationBell uid="me" /> })
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) })
  render(<RouterProvider router={router} />)
  return screen.findByTestId('notification-bell')
}

describe('NotificationBell', () => {
  it('counts the unread live, lists them as links and marks them all read', async () => {
    const bell = await renderBell()
    await vi.waitFor(() => expect(listener.uid).toBe('me'))
    expect(screen.queryByTestId('notification-count')).toBeNull()

    act(() => listener.next(all([notification('a'), notification('b', { link: '/reports/network' }), notification('c', { read: true })])))
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2')
    expect(bell).toHaveAccessibleName('Notifications, 2 unread')

    await userEvent.click(bell)
    const dialog = await screen.findByRole('dialog')
    const links = within(dialog).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/reports/dast', '/reports/network', '/reports/dast'])
    expect(links[0]).toHaveTextContent('Title a (unread)')

    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all read' }))
    expect(listener.marked).toEqual([['a', 'b']])

    // The listener brings the change back: the count goes.
    act(() => listener.next(all([notification('a', { read: true }), notification('b', { read: true }), notification('c', { read: true })])))
    expect(screen.queryByTestId('notification-count')).toBeNull()
    expect(within(dialog).getByRole('button', { name: 'Mark all read' })).toBeDisabled()
  })

  it('opens the place a notification names and marks that one read', async () => {
    listener.marked = []
    const bell = await renderBell()
    await vi.waitFor(() => expect(listener.uid).toBe('me'))
    act(() =>
      listener.next(
        all([
          notification('s', { link: '/reports/dast?scan=dast-2026-11' }),
          notification('m', { type: 'mention', link: '/reports/dast/f-1' }),
          notification('r', { read: true, link: '/reports/network?sort=sla' }),
        ]),
      ),
    )
    await userEvent.click(bell)
    const dialog = await screen.findByRole('dialog')
    const links = within(dialog).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/reports/dast?scan=dast-2026-11',
      '/reports/dast/f-1',
      '/reports/network?sort=sla',
    ])

    await userEvent.click(links[0]!)
    expect(listener.marked).toEqual([['s']])
    // Opening one already read writes nothing.
    await userEvent.click(bell)
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('link', { name: /Title r/ }))
    expect(listener.marked).toEqual([['s']])
  })

  it('keeps links inside the site', async () => {
    const bell = await renderBell()
    await vi.waitFor(() => expect(listener.uid).toBe('me'))
    act(() => listener.next(all([notification('x', { link: 'https://evil.example/' }), notification('y', { link: '//evil.example' })])))
    await userEvent.click(bell)
    const links = within(await screen.findByRole('dialog')).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/', '/'])
  })

  it('counts every unread one from the server beyond the latest listed, says the list is capped and marks the older ones too', async () => {
    const bell = await renderBell()
    await vi.waitFor(() => expect(listener.uid).toBe('me'))
    const latest = Array.from({ length: 50 }, (_, i) => notification(`n${i}`, { read: i >= 10 }))
    act(() => listener.next({ items: latest, more: true, unread: 240 }))
    // The server's count, not the ten unread among those loaded.
    expect(bell).toHaveAccessibleName('Notifications, 240 unread')
    expect(screen.getByTestId('notification-count')).toHaveTextContent('99+')

    await userEvent.click(bell)
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getAllByRole('link')).toHaveLength(50)
    expect(within(dialog).getByRole('note')).toHaveTextContent('The 50 most recent notifications are shown; there are more.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark all read' }))
    expect(listener.allMarked).toEqual(['me'])
  })
})
