import { expect, type Locator, type Page } from '@playwright/test'
import { checkOnly, confirmed, takeShownOnce } from './issued-once'
import { Shell } from './shell'

/** /admin/webhooks: a company's webhook endpoints and their delivery log. */
export class WebhooksPage {
  readonly shell: Shell
  readonly main: Locator
  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.shell = new Shell(page)
    this.main = page.getByRole('main')
  }

  async open(): Promise<void> {
    await this.shell.open('/admin/webhooks')
  }

  get form(): Locator {
    return this.main.getByRole('form', { name: 'New webhook endpoint' })
  }

  /** Registers an endpoint for these events (by their labels) and returns its signing secret as the dialog shows it, once. */
  async register(url: string, events: RegExp[]): Promise<string> {
    await this.form.getByLabel('Endpoint URL (https)').fill(url)
    await checkOnly(this.form, events)
    await this.form.getByRole('button', { name: 'Add endpoint' }).click()
    return takeShownOnce(this.page, { title: 'Copy your signing secret now', field: 'signing secret', stored: 'I have stored the secret' })
  }

  row(url: string): Locator {
    return this.main.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').filter({ hasText: url })
  }

  get deliveries(): Locator {
    return this.main.getByRole('table', { name: 'Deliveries' })
  }

  async showDeliveries(url: string): Promise<void> {
    await this.row(url)
      .getByRole('button', { name: `Deliveries to ${url}` })
      .click()
    await expect(this.deliveries).toBeVisible()
  }

  async remove(url: string): Promise<void> {
    await confirmed(this.page, this.row(url), `Delete ${url}`, { title: 'Delete this endpoint?', confirm: 'Delete endpoint' })
  }
}
