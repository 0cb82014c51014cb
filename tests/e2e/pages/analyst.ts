import { expect, type Page } from '@playwright/test'
import { Shell } from './shell'

/** /analyst/services/<service>: import, the scans, the draft's review and the retest queue. */
export class AnalystServicePage {
  readonly page: Page
  readonly shell: Shell
  readonly importPanel
  readonly scans
  readonly review
  readonly draftFindings
  readonly retests

  constructor(page: Page) {
    this.page = page
    this.shell = new Shell(page)
    this.importPanel = this.shell.main.getByRole('region', { name: /^Import/ })
    this.scans = this.shell.main.getByRole('table', { name: 'Scans' })
    this.review = this.shell.main.getByRole('region', { name: /^Review:/ })
    this.draftFindings = this.review.getByRole('table', { name: 'Draft findings' })
    this.retests = this.shell.main.getByRole('region', { name: 'Retests waiting on us' })
  }

  async open(slug: string): Promise<void> {
    await this.shell.open(`/analyst/services/${slug}`)
    await expect(
      this.shell.main.getByRole('region', { name: 'Scans' }).getByRole('table').or(this.shell.main.getByText('No scans yet')),
    ).toBeVisible()
  }

  /**
   * Imports scanner files as a draft, comparing with nothing (a new scope) unless told which
   * choice of "Compare with" to keep (`null`: the default, earlier scans of the same targets), and
   * waits for the review.
   */
  async importFiles(paths: string[], title: string, compareWith: string | null = 'Nothing: a new scope'): Promise<void> {
    await this.startImport(paths, title, compareWith)
    await expect(this.importPanel.getByRole('status')).toHaveText('The draft is ready for review below.', { timeout: 30_000 })
    await expect(this.review).toContainText(`Review: ${title}`)
  }

  /** Picks the files, names the scan and clicks "Import as draft", without waiting for the outcome. */
  async startImport(paths: string[], title: string, compareWith: string | null = 'Nothing: a new scope'): Promise<void> {
    await this.importPanel.getByLabel(/Drop files here/).setInputFiles(paths)
    await this.importPanel.getByLabel('Scan title (optional)').fill(title)
    if (compareWith) await this.importPanel.getByLabel('Compare with').selectOption({ label: compareWith })
    await this.importPanel.getByRole('button', { name: 'Import as draft' }).click()
  }

  row(text: string | RegExp) {
    return this.draftFindings.getByRole('row').filter({ hasText: text })
  }

  async select(text: string | RegExp): Promise<void> {
    await this.row(text).first().getByRole('checkbox').check()
  }

  /** The publish dialog, opened: what publishing does is in its group "What publishing does". */
  async openPublish() {
    await this.review.getByRole('button', { name: 'Publish to the client' }).click()
    return this.page.getByRole('dialog', { name: 'Publish this scan?' })
  }

  async publish(): Promise<void> {
    const dialog = await this.openPublish()
    await dialog.getByRole('button', { name: 'Publish' }).click()
    await expect(dialog).toHaveCount(0, { timeout: 60_000 })
  }
}
