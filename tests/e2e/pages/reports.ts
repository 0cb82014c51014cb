import { expect, type Page } from '@playwright/test'

/** The report pages: the company overview and a service's report. */
export class ReportsPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  get main() {
    return this.page.getByRole('main')
  }

  tile(service: string) {
    return this.main.getByTestId(`tile-${service}`)
  }

  kpi(label: string) {
    return this.main.getByTestId('kpi').filter({ has: this.page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }) })
  }

  chart(title: string) {
    return this.main.getByRole('figure', { name: title })
  }

  async showAsTable(title: string) {
    const chart = this.chart(title)
    await chart.getByRole('button', { name: 'Show as table' }).click()
    await expect(chart.getByRole('table')).toBeVisible()
    return chart.getByRole('table')
  }

  get statsOnlyNote() {
    return this.main.getByTestId('stats-only')
  }
}
