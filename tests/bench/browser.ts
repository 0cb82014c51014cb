// What the benchmarks that drive Chromium share: signing a demo person in through the emailed link
// (the mail inbox of the local stack), and timing a click until the page shows its effect.
import type { Locator, Page } from '@playwright/test'

export const INBOX = 'http://127.0.0.1:1080'

/** Signs `email` in on `app` as a person does: the address, the button, the link from the inbox. */
export async function signInByEmailLink(page: Page, app: string, email: string): Promise<void> {
  const sent = Date.now()
  await page.goto(`${app}/`)
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByRole('button', { name: 'Login with Link' }).click()
  const response = await fetch(`${INBOX}/api/wait?to=${encodeURIComponent(email)}&after=${sent}&timeout=20000`)
  const mail = (await response.json()) as { links?: string[] }
  const link = mail.links?.find((l) => l.includes('oobCode='))
  if (!link) throw new Error(`No sign-in link for ${email} reached the inbox`)
  await page.goto(link)
  // Completing the sign-in runs a callable: slow on a busy machine with many documents.
  const home = page.waitForURL(`${app}/`, { timeout: 120_000 })
  // A browser that forgot the address it asked with (it happens right after a reseed) asks for it again.
  const welcome = page.getByRole('dialog', { name: 'Welcome' })
  await Promise.race([
    home.catch(() => undefined),
    welcome.waitFor({ timeout: 120_000 }).then(
      async () => {
        await welcome.getByRole('textbox', { name: 'Email' }).fill(email)
        await welcome.locator('button[type="submit"]').click()
      },
      () => undefined,
    ),
  ])
  await home.catch(async (error: unknown) => {
    const shown = (
      (await page
        .locator('main')
        .textContent()
        .catch(() => '')) ?? ''
    )
      .trim()
      .slice(0, 200)
    throw new Error(`Signing ${email} in did not reach ${app}/ (the page says: ${shown || 'nothing'})`, { cause: error })
  })
}

/**
 * Milliseconds from clicking `target` to the next frame after what `region` shows changed: its
 * status text (the count) or the start of its rows. The clock runs in the page, so the figure holds
 * no round trip to the benchmark.
 */
export async function timeClick(region: Locator, target: Locator): Promise<number> {
  const button = await target.elementHandle({ timeout: 5_000 })
  if (!button) throw new Error('Nothing to click')
  return region.evaluate(async (section, element) => {
    const shown = () =>
      (section.querySelector('[role="status"]')?.textContent ?? '') +
      ([...section.querySelectorAll('tbody, [role="rowgroup"]')].map((g) => g.textContent ?? '').join('') || '').slice(0, 400)
    const before = shown()
    const start = performance.now()
    ;(element as HTMLElement).click()
    await new Promise<void>((resolve) => {
      const check = () => {
        if (shown() !== before) requestAnimationFrame(() => resolve())
        else requestAnimationFrame(check)
      }
      check()
    })
    return performance.now() - start
  }, button)
}
