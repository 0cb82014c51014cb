// What the pages that issue a secret once (API tokens, DAST keys, webhook endpoints) share: the
// dialog that shows it a single time, a row's button that asks to be confirmed, and a form's
// choice of checkboxes.
import { expect, type Locator, type Page } from '@playwright/test'

/** The dialog that shows a secret once: its title, the field holding it, and the button that closes it. */
export interface ShownOnce {
  title: string
  field: string
  stored: string
}

/** Reads the secret the dialog shows and closes the dialog as a person would. */
export async function takeShownOnce(page: Page, shown: ShownOnce, options: { timeout?: number } = {}): Promise<string> {
  const dialog = page.getByRole('dialog', { name: shown.title })
  await expect(dialog).toBeVisible(options)
  const secret = await dialog.getByLabel(shown.field).inputValue()
  await dialog.getByRole('button', { name: shown.stored }).click()
  await expect(dialog).toBeHidden()
  return secret
}

/** Presses a row's button, then the confirming button of the dialog it opens. */
export async function confirmed(page: Page, row: Locator, button: string, ask: { title: string; confirm: string }): Promise<void> {
  await row.getByRole('button', { name: button }).click()
  const dialog = page.getByRole('dialog', { name: ask.title })
  await dialog.getByRole('button', { name: ask.confirm }).click()
  await expect(dialog).toBeHidden()
}

/** Ticks exactly the form's checkboxes with these labels. */
export async function checkOnly(form: Locator, labels: readonly RegExp[]): Promise<void> {
  for (const box of await form.getByRole('checkbox').all()) await box.uncheck()
  for (const label of labels) await form.getByRole('checkbox', { name: label }).check()
}
