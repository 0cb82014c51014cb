import type { Page } from '@playwright/test'
import { autosaveStatus } from './autosave'

/** The settings page (/profile): fields that save themselves. */
export class SettingsPage {
  readonly displayName
  readonly photo
  readonly defaultCompany

  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.displayName = page.getByRole('textbox', { name: 'Display name' })
    this.photo = page.getByRole('textbox', { name: 'Photo address' })
    this.defaultCompany = page.getByRole('combobox', { name: 'Default company' })
  }

  async goto(): Promise<void> {
    await this.page.goto('/profile')
  }

  /** The autosave status beside a field. */
  status(label: string) {
    return autosaveStatus(this.page, label)
  }

  scheme(name: 'Auto' | 'Light' | 'Dark') {
    return this.page.getByRole('radio', { name })
  }
}
