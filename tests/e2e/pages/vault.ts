import { expect, type Locator, type Page } from '@playwright/test'
import { Shell } from './shell'

export interface ShareOptions {
  secret: string
  files?: { name: string; mimeType: string; buffer: Buffer }[]
  label?: string
  views?: number
  passphrase?: string
  recipient?: string
  expiry?: '1 hour' | '1 day' | '3 days' | '7 days' | '30 days'
}

/** The analyst's share-link page: the form, the link it makes, and the live list of links. */
export class ShareLinkPage {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  async open(): Promise<void> {
    // The user menu is enabled once the page has hydrated: only then does the form submit by script.
    await new Shell(this.page).open('/analyst/vault/link')
    await expect(this.page.getByRole('heading', { name: 'Share a secret' })).toBeVisible()
  }

  /** Shares a secret and gives the link to copy. */
  async share(options: ShareOptions): Promise<string> {
    const form = this.page.getByRole('form', { name: 'Share a secret' })
    await form.getByLabel('Secret', { exact: true }).fill(options.secret)
    if (options.files) await form.getByLabel('Files (optional)').setInputFiles(options.files)
    if (options.label) await form.getByLabel('What it is').fill(options.label)
    if (options.views) await form.getByLabel('Views').fill(String(options.views))
    if (options.expiry) await form.getByLabel('Expires after').selectOption({ label: options.expiry })
    if (options.passphrase) await form.getByLabel('Passphrase').fill(options.passphrase)
    if (options.recipient) await form.getByLabel('Recipient email').fill(options.recipient)
    await form.getByRole('button', { name: 'Create link' }).click()
    const link = this.page.getByRole('textbox', { name: 'Share link' })
    await expect(link).toHaveValue(/\/vault\/s\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$/, { timeout: 60_000 })
    const url = await link.inputValue()
    await this.page.getByRole('button', { name: 'Share another secret' }).click()
    return url
  }

  /** The link's row in the list, by the label it was shared under. */
  row(label: string): Locator {
    return this.page.getByRole('listitem', { name: label })
  }

  status(label: string): Locator {
    return this.row(label).locator('[data-status]')
  }
}

/** The recipient's page of a share link. */
export class RevealPage {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  readonly revealButton = () => this.page.getByRole('button', { name: 'Reveal' })
  readonly secret = () => this.page.getByRole('textbox', { name: 'Secret' })
  readonly alert = () => this.page.getByRole('alert')

  async open(url: string): Promise<void> {
    await this.page.goto(url)
  }
}

/** The analyst's request-link page: the form, the link it makes, and the live list of requests. */
export class RequestLinkPage {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  async open(): Promise<void> {
    await new Shell(this.page).open('/analyst/vault/request')
    await expect(this.page.getByRole('heading', { name: 'Ask for a secret' })).toBeVisible()
  }

  async ask(label: string, vaultPassphrase: string, options: { team?: boolean } = {}): Promise<string> {
    return (await this.askFor(label, vaultPassphrase, options)).url
  }

  /** Asks, and says with whom the request was shared when the engagement's analysts may open it. */
  async askFor(label: string, vaultPassphrase: string, options: { team?: boolean } = {}): Promise<{ url: string; shared: string }> {
    const form = this.page.getByRole('form', { name: 'Ask for a secret' })
    await form.getByLabel('What you need').fill(label)
    await form.getByLabel('Vault passphrase').fill(vaultPassphrase)
    if (options.team) await form.getByLabel(/engagement can open it too$/).check()
    await form.getByRole('button', { name: 'Create request link' }).click()
    const link = this.page.getByRole('textbox', { name: 'Request link' })
    await expect(link).toHaveValue(/\/vault\/r\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{87}\.[A-Za-z0-9_-]{43}$/, { timeout: 15_000 })
    const url = await link.inputValue()
    const shared = options.team
      ? await this.page.getByRole('region', { name: 'Your request link is ready' }).getByRole('status').innerText()
      : ''
    await this.page.getByRole('button', { name: 'Ask for another secret' }).click()
    return { url, shared }
  }

  /** Sets up the analyst's vault key (they have none yet), so colleagues can share answers with them. */
  async setUpVaultKey(vaultPassphrase: string): Promise<void> {
    const panel = this.page.getByRole('region', { name: 'Your vault key' })
    const form = panel.getByRole('form', { name: 'Set up my vault key' })
    await form.getByLabel('Vault passphrase for your key').fill(vaultPassphrase)
    await form.getByRole('button', { name: 'Set up my vault key' }).click()
    await expect(panel.getByLabel('Vault key fingerprint')).toHaveText(/^([0-9A-F]{4} ){4}[0-9A-F]{4}$/, { timeout: 15_000 })
  }

  row(label: string): Locator {
    return this.page.getByRole('listitem', { name: label })
  }

  /** Opens the answer with the vault passphrase. */
  async reveal(label: string, vaultPassphrase: string): Promise<void> {
    const form = this.row(label).getByRole('form', { name: `Open the answer to ${label}` })
    await form.getByLabel('Vault passphrase').fill(vaultPassphrase)
    await form.getByRole('button', { name: 'Reveal' }).click()
  }
}
