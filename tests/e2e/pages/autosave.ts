import type { Locator, Page } from '@playwright/test'

/** The autosave status icon beside the field labelled `label` (they share the label's row). */
export function autosaveStatus(page: Page, label: string | RegExp): Locator {
  return page.locator('label', { hasText: label }).locator('xpath=..').locator('[data-autosave-status]')
}
