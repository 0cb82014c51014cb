import { expect, type Locator, type Page } from '@playwright/test'
import { confirmed, takeShownOnce } from './issued-once'
import { Shell } from './shell'

/** /admin/company/create-company and /admin/company. */
export class CompaniesPage {
  readonly shell: Shell
  readonly main: Locator
  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.shell = new Shell(page)
    this.main = page.getByRole('main')
  }

  async openCreate(): Promise<void> {
    await this.shell.open('/admin/company/create-company')
  }

  service(label: string): Locator {
    return this.main.getByRole('checkbox', { name: label })
  }

  async addScopeEntry(kind: string, value: string): Promise<void> {
    await this.main.getByLabel('Kind').selectOption({ label: kind })
    await this.main.getByLabel('Entry', { exact: true }).fill(value)
    await this.main.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(this.scope.getByText(value, { exact: true })).toBeVisible()
  }

  get scope(): Locator {
    return this.main.getByRole('list', { name: 'Scan scope' })
  }

  async create(name: string): Promise<void> {
    await this.main.getByLabel('Company name').fill(name)
    await this.main.getByRole('button', { name: 'Create company' }).click()
    await expect(this.main.getByRole('heading', { name, level: 2 })).toBeVisible()
  }

  auditRows(): Locator {
    return this.main.getByRole('table', { name: 'Audit trail' }).getByRole('row')
  }
}

/** /admin/dast. */
export class DastKeysPage {
  readonly shell: Shell
  readonly main: Locator
  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.shell = new Shell(page)
    this.main = page.getByRole('main')
  }

  async open(): Promise<void> {
    await this.shell.open('/admin/dast')
  }

  get form(): Locator {
    return this.main.getByRole('form', { name: 'New DAST key' })
  }

  get nameField(): Locator {
    return this.form.getByLabel('Name')
  }

  get targetsField(): Locator {
    return this.form.getByLabel('Targets, one per line')
  }

  /** Fills in the new key's form without sending it. */
  async fill(name: string, targets: string[], days = 30, options: { publishAtOnce?: boolean } = {}): Promise<void> {
    await this.nameField.fill(name)
    await this.form.getByLabel(/Expires after/).fill(String(days))
    await this.targetsField.fill(targets.join('\n'))
    if (options.publishAtOnce) await this.form.getByLabel(/Publish this key.s scans to the reports/).check()
  }

  async submit(): Promise<void> {
    await this.form.getByRole('button', { name: 'Create key' }).click()
  }

  /** Makes a key and returns it as the dialog shows it, once; the dialog is closed after. */
  async create(name: string, targets: string[], days = 30, options: { publishAtOnce?: boolean } = {}): Promise<string> {
    await this.fill(name, targets, days, options)
    return this.takeKey()
  }

  /** Sends the form as filled in and returns the key the dialog shows (once); the dialog is closed after. */
  async takeKey(options: { timeout?: number } = {}): Promise<string> {
    await this.submit()
    return takeShownOnce(this.page, { title: 'Copy your DAST key now', field: 'DAST key', stored: 'I have stored the key' }, options)
  }

  row(name: string): Locator {
    return this.main.getByRole('table', { name: 'DAST keys' }).getByRole('row').filter({ hasText: name })
  }

  async revoke(name: string): Promise<void> {
    await confirmed(this.page, this.row(name), `Revoke ${name}`, { title: 'Revoke this key?', confirm: 'Revoke key' })
  }
}
