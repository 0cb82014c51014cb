import { expect, type Locator, type Page } from '@playwright/test'
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
    for (const box of await this.form.getByRole('checkbox').all()) await box.uncheck()
    for (const scope of scopes) await this.form.getByRole('checkbox', { name: scope }).check()
    await this.form.getByRole('button', { name: 'Create token' }).click()
    const dialog = this.page.getByRole('dialog', { name: 'Copy your API token now' })
    await expect(dialog).toBeVisible()
    const token = await dialog.getByLabel('API token').inputValue()
    await dialog.getByRole('button', { name: 'I have stored the token' }).click()
    await expect(dialog).toBeHidden()
    return token
  }

  row(name: string): Locator {
    return this.main.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name })
  }

  async revoke(name: string): Promise<void> {
    await this.row(name)
      .getByRole('button', { name: `Revoke ${name}` })
      .click()
    const dialog = this.page.getByRole('dialog', { name: 'Revoke this token?' })
    await dialog.getByRole('button', { name: 'Revoke token' }).click()
    await expect(dialog).toBeHidden()
  }
}
