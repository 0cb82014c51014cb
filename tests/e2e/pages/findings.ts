import { expect, type Locator, type Page } from '@playwright/test'

/** A service report's findings section: filters, the table and the bulk moves. */
export class FindingsTable {
  readonly page: Page
  readonly section: Locator
  readonly table: Locator
  readonly search: Locator
  /** "1,234 findings": how many the filters find, all of them. */
  readonly count: Locator
  /** The table's own scroll box. */
  readonly scroller: Locator

  constructor(page: Page) {
    this.page = page
    this.section = page.getByRole('region', { name: 'Findings' })
    this.table = this.section.getByRole('table')
    this.search = this.section.getByRole('searchbox', { name: 'Search' })
    this.count = this.section.getByRole('status').filter({ hasText: /^[\d,]+ findings?\b/ })
    this.scroller = this.section.locator('div:has(> table)')
  }

  async open(service: string, query = ''): Promise<void> {
    await this.page.goto(`/reports/${service}${query}`)
    await expect(this.page.getByRole('button', { name: 'User menu' })).toBeEnabled()
    // The findings load as their section comes near the screen, as a reader scrolls down to them.
    await this.section.scrollIntoViewIfNeeded()
    await expect(this.table).toBeVisible({ timeout: 20_000 })
  }

  facet(name: 'Severity' | 'Status'): Locator {
    return this.section.getByRole('group', { name })
  }

  /** A severity or status filter chip (its name starts with the value's label, then its count). */
  chip(facet: 'Severity' | 'Status', label: string): Locator {
    return this.facet(facet).getByRole('button', { name: new RegExp(`^${label} `) })
  }

  row(title: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('link', { name: title, exact: true }) })
  }
}

/** A finding's page: its status, the workflow buttons and the dialogs they open. */
export class FindingPage {
  readonly page: Page
  readonly main: Locator
  readonly workflow: Locator
  readonly history: Locator

  constructor(page: Page) {
    this.page = page
    this.main = page.getByRole('main')
    this.workflow = this.main.getByRole('group', { name: 'Workflow' })
    this.history = this.main.getByRole('list', { name: 'Status history' })
  }

  async open(service: string, id: string): Promise<void> {
    await this.page.goto(`/reports/${service}/${id}`)
    await expect(this.page.getByRole('button', { name: 'User menu' })).toBeEnabled()
    await expect(this.main.locator('article h1')).toBeVisible({ timeout: 20_000 })
  }

  status(): Locator {
    return this.main.locator('article header [data-status]')
  }

  /** Makes a move through its dialog: the note and, for a risk acceptance, the end date. */
  async move(name: string, fields: { note?: string; noteLabel?: string; until?: string } = {}): Promise<void> {
    const dialog = await this.startMove(name, fields)
    await expect(dialog).toBeHidden({ timeout: 20_000 })
  }

  /** Fills the move's dialog and confirms it, without waiting for the outcome; the dialog. */
  async startMove(name: string, fields: { note?: string; noteLabel?: string; until?: string } = {}): Promise<Locator> {
    await this.workflow.getByRole('button', { name, exact: true }).click()
    const dialog = this.page.getByRole('dialog', { name })
    if (fields.note !== undefined) await dialog.getByLabel(fields.noteLabel ?? /Note|What was changed|Reason/).fill(fields.note)
    if (fields.until !== undefined) await dialog.getByLabel('Acceptance ends on').fill(fields.until)
    await dialog.getByRole('button', { name, exact: true }).click()
    return dialog
  }
}
