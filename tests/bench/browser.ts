// What the benchmarks that drive Chromium share: signing a demo person in through the emailed link
// (the mail inbox of the local stack), timing a step until the page shows its effect, and an export
// with the tab's memory while it runs.
import { statSync } from 'node:fs'
import type { CDPSession, Locator, Page } from '@playwright/test'

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

/** What a timed step does to its target: a click, text typed into a field, or text entered with Enter. */
export type Act = { click: true } | { type: string } | { enter: string }

/**
 * Milliseconds from doing `act` to `target` to the next frame after what `region` shows changed
 * (its status text, the count, or the start of its rows) and nothing in it says it is loading. The clock runs in the page, so the figure
 * holds no round trip to the benchmark. Text reaches a field as typing does (the value, then an
 * input event), so the page's own handlers see it.
 */
export async function timeEffect(region: Locator, target: Locator, act: Act = { click: true }): Promise<number> {
  const element = await target.elementHandle({ timeout: 5_000 })
  if (!element) throw new Error('Nothing to act on')
  return region.evaluate(
    async (section, [element, act]) => {
      const shown = () =>
        (section.querySelector('[role="status"]')?.textContent ?? '') +
        ([...section.querySelectorAll('tbody, [role="rowgroup"]')].map((g) => g.textContent ?? '').join('') || '').slice(0, 400)
      const before = shown()
      const field = element as HTMLInputElement
      const start = performance.now()
      if ('click' in act) field.click()
      else {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, 'type' in act ? act.type : act.enter)
        field.dispatchEvent(new Event('input', { bubbles: true }))
        if ('enter' in act) field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))
      }
      // Settled: no part of the region says it is still loading or updating (the table says so at
      // once, over the last answer, and that is not yet the answer).
      const loading = () => [...section.querySelectorAll('[role="status"]')].some((s) => /^\s*(Loading|Updating)/.test(s.textContent ?? ''))
      await new Promise<void>((resolve) => {
        const check = () => {
          if (shown() !== before && !loading()) requestAnimationFrame(() => resolve())
          else requestAnimationFrame(check)
        }
        check()
      })
      return performance.now() - start
    },
    [element, act] as const,
  )
}

/** The median and the 95th percentile of some timings. */
export function spread(timings: readonly number[]): { median: number; p95: number; runs: number } {
  const sorted = [...timings].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN
  return { median: at(0.5), p95: at(0.95), runs: sorted.length }
}

async function heapUsed(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0
}

export interface ExportRun {
  ms: number
  heapBefore: number
  heapPeak: number
  /** The most the heap held after a collection: what the export keeps, without the garbage not yet collected. */
  heldPeak: number
  bytes: number
  /** What the page said when the file was done. */
  message: string
}

/**
 * One export from the report page on screen, as a person makes it (the Export menu, a format), to
 * the downloaded file: how long it took, and the tab's JavaScript heap after a collection before it
 * and at its highest while it ran (read through the DevTools protocol every 50 ms), and the most it
 * held after a collection made every 2 s meanwhile: the figure that stays flat when the export
 * keeps nothing that grows (the highest point rises with the garbage the collector lets build up).
 * The page's context must accept downloads and have no save-file picker (nobody is there to answer it).
 */
export async function exportWithHeap(page: Page, format: 'csv' | 'json' | 'sarif' | 'pdf'): Promise<ExportRun> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  await page.getByRole('button', { name: /^Export/ }).waitFor()
  await cdp.send('HeapProfiler.collectGarbage')
  const heapBefore = await heapUsed(cdp)
  let heapPeak = heapBefore
  let heldPeak = heapBefore
  let sampling = true
  const sampler = (async () => {
    for (let sample = 1; sampling; sample++) {
      heapPeak = Math.max(heapPeak, await heapUsed(cdp))
      if (sample % 40 === 0) {
        await cdp.send('HeapProfiler.collectGarbage')
        heldPeak = Math.max(heldPeak, await heapUsed(cdp))
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  try {
    await page.getByRole('button', { name: /^Export/ }).click()
    const item = page.getByRole('menuitem', { name: format === 'pdf' ? /PDF report/ : new RegExp(format.toUpperCase()) })
    const started = Date.now()
    const [file] = await Promise.all([page.waitForEvent('download', { timeout: 1_800_000 }), item.click()])
    const path = await file.path()
    const ms = Date.now() - started
    const message = (await page.getByText(/^acme-corporation-dast-.*findings\.$/).textContent()) ?? ''
    return { ms, heapBefore, heapPeak, heldPeak, bytes: statSync(path).size, message }
  } finally {
    sampling = false
    await sampler
    await cdp.detach()
  }
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
