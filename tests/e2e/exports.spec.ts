// Exports of a service's report, downloaded from the service page as a person would: each format
// holds the findings the page shows (its filters applied), also when they span many pages of the
// database's answers, and readers of the figures only get the PDF of the figures. The PDF is
// rendered to images with pdftoppm. Downloads go through the browser's download (the save-file
// picker is taken away); one test gives the page a picker that writes into the origin's own files.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Download, Page, Route } from '@playwright/test'
import Ajv from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import Papa from 'papaparse'
import { findingHistoryPath, storedHistoryEntry } from '#domain/finding-history.ts'
import { findingPath } from '#domain/findings.ts'
import { parseFindingsExport } from '#domain/report-json.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { withoutBackgroundTriggers } from '../../emulators/firebase/triggers.ts'
import { exportFinding } from '../unit/export-fixtures.ts'
import { expect, test } from './fixtures'
import { deleteFindings } from './support/findings'

const COMPANY = 'acme'
const COUNT = 6
const SEARCH = 'e2e export'

const findings = Array.from({ length: COUNT }, (_, n) =>
  exportFinding('dast', n, {
    id: `e2e-export-${n}`,
    // Seen today: the table loads the most recently seen findings first.
    lastSeenAt: Date.now(),
    fingerprint: `e2e-export-${n}`.padEnd(64, '0'),
    // The first title would be a formula in a spreadsheet: the CSV must defuse it.
    title: n === 0 ? '=E2E export 0: formula' : `E2E export ${n}: ${['Reflected XSS', 'SQL injection', 'Open redirect'][n % 3]}`,
    // Text the PDF must print as written: angle brackets in code, Cyrillic and Japanese.
    ...(n === 2
      ? {
          description: 'A diagnostic feature builds a shell command, for example `ping -c 1 <host>`.',
          remediation: 'Проверьте ввод: 入力を検証する。',
        }
      : {}),
  }),
)

// More findings than one page of the export's reads (500), most of them high; every third one tagged.
const BULK = 1_150
const BULK_TAG = 'e2e-bulk-pick'
const bulk = Array.from({ length: BULK }, (_, n) =>
  exportFinding('dast', n, {
    id: `e2e-bulk-${String(n).padStart(4, '0')}`,
    severity: n % 23 === 0 ? 'medium' : 'high',
    status: 'open',
    lastSeenAt: Date.now() - n * 60_000,
    fingerprint: `e2e-bulk-${n}`.padEnd(64, '0'),
    title: `E2E bulk ${n}`,
    tags: n % 3 === 0 ? [BULK_TAG] : ['e2e-bulk-other'],
  }),
)
const bulkExpected = bulk.filter((f) => f.severity === 'high' && f.tags.includes(BULK_TAG)).map((f) => f.id)

const db = () => sharedAdmin().db

test.beforeAll(async () => {
  const batch = db().batch()
  for (const { id, ...stored } of findings) batch.set(db().doc(findingPath(COMPANY, id)), stored)
  batch.set(
    db().doc(`${findingHistoryPath(COMPANY, findings[1]!.id)}/e2e-1`),
    storedHistoryEntry(COMPANY, 'dast', findings[1]!.id, {
      action: 'start_remediation',
      from: 'open',
      to: 'in_remediation',
      at: findings[1]!.publishedAt + 86_400_000,
      byUid: 'demo-client-manager',
      byName: 'Mario Manager',
      role: 'manager',
      note: 'Patch scheduled',
    }),
  )
  await batch.commit()
})

test.afterAll(async () => {
  await deleteFindings(
    COMPANY,
    findings.map((f) => f.id),
  )
})

/** The browser's download, not the save-file picker (Playwright cannot answer its dialog). */
const withoutPicker = (page: Page) => page.addInitScript(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)

/** Picks a format in the export menu and waits for the browser's download. */
async function download(page: Page, item: RegExp): Promise<Download> {
  await page.getByRole('button', { name: /^Export/ }).click()
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: item }).click()])
  expect(await file.failure()).toBeNull()
  return file
}

const text = async (file: Download) => readFileSync(await file.path(), 'utf8')

/** Renders the PDF to PNG pages (kept with the test's results to look at) and counts them. */
function renderPdf(pdf: string): number {
  const folder = test.info().outputPath('pdf-pages')
  mkdirSync(folder, { recursive: true })
  execFileSync('pdftoppm', ['-png', '-r', '50', pdf, path.join(folder, 'page')])
  return readdirSync(folder).filter((name) => name.endsWith('.png')).length
}

test.describe('a reader of the results', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('downloads each export with the findings the page shows', async ({ page }) => {
    test.setTimeout(90_000)
    await withoutPicker(page)
    // Every status the findings are in: the table shows open findings unless statuses are chosen.
    const statuses = [...new Set(findings.map((f) => f.status))]
    await page.goto(`/reports/dast?q=${encodeURIComponent(SEARCH)}${statuses.map((status) => `&status=${status}`).join('')}`)
    // The export reads the database itself: it needs no row of the table.
    await expect(page.getByRole('button', { name: /^Export/ })).toBeEnabled({ timeout: 20_000 })
    await page.getByRole('button', { name: /^Export/ }).click()
    // The text search is the browser's to apply: the menu counts what it searches (an aggregation per severity).
    await expect(page.getByRole('menu')).toContainText(/The findings matching the search, among [\d,]+ findings/, { timeout: 20_000 })
    await expect(page.getByRole('menu')).toContainText('Order: most severe first, then most recently seen.')
    await expect(page.getByRole('menuitem')).toHaveText([/PDF report/, /CSV/, /JSON/, /SARIF/])
    await page.keyboard.press('Escape')

    const csv = await download(page, /CSV/)
    expect(csv.suggestedFilename()).toMatch(/^acme-corporation-dast-\d{4}-\d{2}-\d{2}\.csv$/)
    const rows = Papa.parse<string[]>((await text(csv)).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data
    expect(rows).toHaveLength(COUNT + 1)
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(findings.map((f) => f.id).sort())
    expect(rows.find((r) => r[0] === 'e2e-export-0')?.[1]).toBe("'=E2E export 0: formula")

    const json = await download(page, /JSON/)
    expect(json.suggestedFilename()).toMatch(/\.json$/)
    const parsed = parseFindingsExport(await text(json))
    expect(parsed.success, JSON.stringify(parsed.issues?.slice(0, 3))).toBe(true)
    if (parsed.success) {
      expect(parsed.output.findings).toHaveLength(COUNT)
      expect(parsed.output.filters).toEqual({ q: SEARCH, status: statuses })
      expect(parsed.output.findings.find((f) => f.id === 'e2e-export-1')?.history).toEqual([
        expect.objectContaining({ action: 'start_remediation', by: 'Mario Manager', note: 'Patch scheduled' }),
      ])
    }

    const sarif = await download(page, /SARIF/)
    expect(sarif.suggestedFilename()).toMatch(/\.sarif$/)
    const log = JSON.parse(await text(sarif))
    const require = createRequire(import.meta.url)
    const ajv = new Ajv({ strict: false, unicodeRegExp: false })
    addFormats(ajv)
    const validate = ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'))
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    expect(log.runs[0].results).toHaveLength(COUNT)
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toMatch(/^https:\/\//)

    const pdf = await download(page, /PDF report/)
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/)
    expect(
      readFileSync(await pdf.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    expect(renderPdf(await pdf.path())).toBeGreaterThan(1)
    const printed = execFileSync('pdftotext', ['-enc', 'UTF-8', await pdf.path(), '-'], { encoding: 'utf8' })
      .replace(/\u200b/g, '')
      .replace(/\s+/g, ' ')
    for (const f of findings) expect(printed).toContain(f.title)
    expect(printed).toContain('for example ping -c 1 <host>.')
    expect(printed).toContain('Проверьте ввод: 入力を検証する。')
    expect(printed).toContain('GET /api/items?q=1 HTTP/1.1')
  })
})

test.describe('an export of more findings than one page', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  // Written and removed with the database's triggers held back: the export reads the database
  // itself, and a thousand trigger runs would hold up the specs after this one.
  const writeBulk = (remove: boolean) =>
    withoutBackgroundTriggers(async () => {
      for (let i = 0; i < bulk.length; i += 400) {
        const batch = db().batch()
        for (const { id, ...stored } of bulk.slice(i, i + 400)) {
          const ref = db().doc(findingPath(COMPANY, id))
          if (remove) batch.delete(ref)
          else batch.set(ref, stored)
        }
        await batch.commit()
      }
    })
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    await writeBulk(false)
  })
  test.afterAll(async () => {
    test.setTimeout(120_000)
    await writeBulk(true)
  })

  test('holds exactly the findings that match the filter, in CSV through the picker and in SARIF through a download', async ({ page }) => {
    test.setTimeout(180_000)
    // A picker that hands the page a file of its own origin (the browser's private file system).
    await page.addInitScript(() => {
      ;(window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async (options: { suggestedName: string }) => {
        ;(window as unknown as { pickedName: string }).pickedName = options.suggestedName
        const root = await navigator.storage.getDirectory()
        return root.getFileHandle('picked-export', { create: true })
      }
    })
    await page.goto(`/reports/dast?severity=high&tag=${BULK_TAG}`)
    await page.getByRole('button', { name: /^Export/ }).click()
    await expect(page.getByRole('menu')).toContainText(/The findings matching the search, among [\d,]+ findings/)
    await expect(page.getByRole('menu')).toContainText('Order: most severe first, then most recently seen.')

    // CSV through the picker: written into the picked file page by page.
    await page.getByRole('menuitem', { name: /CSV/ }).click()
    await expect(page.getByText(`${bulkExpected.length} findings.`).first()).toBeVisible({ timeout: 120_000 })
    const picked = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory()
      const file = await (await root.getFileHandle('picked-export')).getFile()
      return { name: (window as unknown as { pickedName: string }).pickedName, text: await file.text() }
    })
    expect(picked.name).toMatch(/^acme-corporation-dast-\d{4}-\d{2}-\d{2}\.csv$/)
    const rows = Papa.parse<string[]>(picked.text.replace(/^\ufeff/, ''), { skipEmptyLines: true }).data
    // Exactly the matching ones, most recently seen first within the one severity.
    expect(rows.slice(1).map((r) => r[0])).toEqual(bulkExpected)

    // SARIF through the browser's download.
    await page.evaluate(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)
    const sarif = await download(page, /SARIF/)
    const log = JSON.parse(await text(sarif))
    expect(log.runs[0].results.map((r: { properties: { findingId: string } }) => r.properties.findingId)).toEqual(bulkExpected)
  })

  test('cancelled, it saves no file', async ({ page }) => {
    test.setTimeout(60_000)
    await withoutPicker(page)
    const downloads: string[] = []
    page.on('download', (d) => downloads.push(d.suggestedFilename()))
    await page.goto('/reports/dast?severity=high')
    await expect(page.getByRole('button', { name: /^Export/ })).toBeEnabled()
    // The database holds back its answers to the export's pages, as a large service's would take a
    // while: the export cannot end before the Cancel. A page request the cancel ended is let go.
    const heldPages: Route[] = []
    await page.route(/:runQuery$/, (route) => void heldPages.push(route))
    await page.getByRole('button', { name: /^Export/ }).click()
    await page.getByRole('menuitem', { name: /JSON/ }).click()
    const tray = page.getByRole('region', { name: 'Exporting JSON' })
    await expect(tray.getByRole('status')).toContainText(/findings/)
    await expect.poll(() => heldPages.length, { timeout: 30_000 }).toBeGreaterThan(0)
    await tray.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.getByText('Export cancelled', { exact: true })).toBeVisible()
    await expect(tray).toBeHidden()
    await page.unroute(/:runQuery$/)
    for (const route of heldPages) await route.abort().catch(() => {})
    // The menu is free again, and nothing was handed to the browser as a download.
    await expect(page.getByRole('button', { name: /^Export/ })).toBeEnabled()
    expect(downloads).toEqual([])
  })
})

test.describe('a reader of the figures only', () => {
  // Globex sees cloud figures, not cloud results.
  test.use({ signedInAs: 'manager@acme.example' })

  test('gets the PDF of the figures and nothing else', async ({ page }) => {
    test.setTimeout(60_000)
    await withoutPicker(page)
    await page.goto('/reports/cloud')
    await expect(page.getByTestId('stats-only')).toBeVisible()
    await page.getByRole('button', { name: /^Export/ }).click()
    await expect(page.getByRole('menu')).toContainText('Figures only')
    await expect(page.getByRole('menuitem')).toHaveText([/PDF of the figures/])
    await page.keyboard.press('Escape')
    const pdf = await download(page, /PDF of the figures/)
    expect(pdf.suggestedFilename()).toMatch(/^globex-industries-cloud-\d{4}-\d{2}-\d{2}\.pdf$/)
    expect(renderPdf(await pdf.path())).toBeGreaterThan(1)
  })
})
