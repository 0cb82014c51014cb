import { expect, type Locator, type Page } from '@playwright/test'
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
    for (const box of await this.form.getByRole('checkbox').all()) await box.uncheck()
    for (const event of events) await this.form.getByRole('checkbox', { name: event }).check()
    await this.form.getByRole('button', { name: 'Add endpoint' }).click()
    const dialog = this.page.getByRole('dialog', { name: 'Copy your signing secret now' })
    await expect(dialog).toBeVisible()
    const secret = await dialog.getByLabel('signing secret').inputValue()
    await dialog.getByRole('button', { name: 'I have stored the secret' }).click()
    await expect(dialog).toBeHidden()
    return secret
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
    await this.row(url)
      .getByRole('button', { name: `Delete ${url}` })
      .click()
    const dialog = this.page.getByRole('dialog', { name: 'Delete this endpoint?' })
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click()
    await expect(dialog).toBeHidden()
  }
}
