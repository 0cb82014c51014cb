import type { Page } from '@playwright/test'

/** The analyst's desk: a tile per service and the drafts, retests, disputes and imports tables. */
export class AnalystDeskPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  get main() {
    return this.page.getByRole('main')
  }

  tile(service: string) {
    return this.main.getByTestId(`desk-tile-${service}`)
  }

  get drafts() {
    return this.main.getByTestId('desk-drafts')
  }

  get retests() {
    return this.main.getByTestId('desk-retests')
  }

  get disputed() {
    return this.main.getByTestId('desk-disputed')
  }

  get imports() {
    return this.main.getByTestId('desk-imports')
  }
}
