import type { Locator, Page } from '@playwright/test'
import { checkOnly, confirmed, takeShownOnce } from './issued-once'
import { Shell } from './shell'

/** /admin/api-tokens: a company's API tokens. */
export class ApiTokensPage {
  readonly shell: Shell
  readonly main: Locator
  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.shell = new Shell(page)
    this.main = page.getByRole('main')
  }

  async open(): Promise<void> {
    await this.shell.open('/admin/api-tokens')
  }

  get form(): Locator {
    return this.main.getByRole('form', { name: 'New API token' })
  }

  /** Makes a token with these scopes (by their labels) and returns it as the dialog shows it, once. */
  async create(name: string, scopes: RegExp[]): Promise<string> {
    await this.form.getByLabel('Name').fill(name)
    await checkOnly(this.form, scopes)
    await this.form.getByRole('button', { name: 'Create token' }).click()
    return takeShownOnce(this.page, { title: 'Copy your API token now', field: 'API token', stored: 'I have stored the token' })
  }

  row(name: string): Locator {
    return this.main.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name })
  }

  async revoke(name: string): Promise<void> {
    await confirmed(this.page, this.row(name), `Revoke ${name}`, { title: 'Revoke this token?', confirm: 'Revoke token' })
  }
}
