import type { Page } from '@playwright/test'

/** Home for a signed-in person: the dashboard's lines, the findings search, and the header's bell. */
export class DashboardPage {
  readonly heading
  readonly changes
  readonly sla
  readonly search
  readonly hits
  readonly bell
  readonly bellCount
  readonly notifications

  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.heading = page.getByRole('heading', { level: 1 })
    this.changes = page.getByTestId('dashboard-changes')
    this.sla = page.getByTestId('dashboard-sla')
    this.search = page.getByRole('searchbox', { name: /^Search the findings of/ })
    this.hits = page.getByTestId('finding-hits')
    this.bell = page.getByRole('banner').getByTestId('notification-bell')
    this.bellCount = page.getByRole('banner').getByTestId('notification-count')
    this.notifications = page.getByRole('dialog', { name: 'Notifications' })
  }

  /** A line of "since your last visit" by its text. */
  change(text: string | RegExp) {
    return this.changes.getByRole('link', { name: text })
  }

  async openNotifications(): Promise<void> {
    await this.bell.click()
    await this.notifications.waitFor()
  }

  markAllRead() {
    return this.notifications.getByRole('button', { name: 'Mark all read' }).click()
  }
}

/** The notification choices on the settings page. */
export const notificationChoice = (page: Page, label: string, channel: 'in the app' | 'by email') =>
  page.getByRole('checkbox', { name: `${label}: ${channel}` })
