import { expect, type Page } from '@playwright/test'
import { autosaveStatus } from './autosave'

/** The finding templates: the list with its search, and the editor of one template. */
export class TemplatesPage {
  readonly searchBox
  readonly results
  readonly count

  readonly page: Page

  constructor(page: Page) {
    this.page = page
    this.searchBox = page.getByRole('searchbox', { name: 'Search templates' })
    this.results = page.getByRole('region', { name: 'Templates found' })
    this.count = this.results.getByRole('status')
  }

  async goto(query = ''): Promise<void> {
    await this.page.goto(`/templates/finding${query}`)
  }

  /** Opens the list and waits for its first results (in the server's HTML) and for its search box to take input. */
  async open(): Promise<void> {
    await this.goto()
    await expect(this.count).toHaveText(/^\d[\d,]* templates$/)
    await expect(this.searchBox).toBeEnabled()
  }

  resultLink(title: string) {
    return this.results.getByRole('link', { name: title })
  }

  /** Creates a template through the "New template" dialog and waits for its editor. */
  async create(title: string, severity: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New template' }).click()
    const dialog = this.page.getByRole('dialog', { name: 'New template' })
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title)
    await dialog.getByRole('combobox', { name: 'Severity' }).selectOption(severity)
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(this.page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  }

  /** The slug of the template the editor shows. */
  openSlug(): string {
    return new URL(this.page.url()).searchParams.get('template') ?? ''
  }

  /** The autosave status beside an editor field, by its exact label. */
  status(label: string) {
    return autosaveStatus(this.page, new RegExp(`^${label}$`))
  }

  /** Asks to delete the open template and confirms; returns the confirmation dialog. */
  /** The delete dialog, opened; it says up front when findings use the template. */
  async openDelete() {
    await this.page.getByRole('button', { name: 'Delete' }).click()
    return this.page.getByRole('dialog', { name: 'Delete this template?' })
  }

  async deleteOpen() {
    const dialog = await this.openDelete()
    await dialog.getByRole('button', { name: 'Delete template' }).click()
    return dialog
  }
}
