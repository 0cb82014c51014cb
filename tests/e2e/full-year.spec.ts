// On the full demo year (playwright.full-year.config.ts; the main suite seeds a tenth and skips this
// file): a reader compares the two latest network scans of the year, with every group counted as
// the members and first-seen times of those scans say, and exports the DAST report's default view
// as JSON, every open finding in it, in seconds. links.spec.ts runs in the same run on the same year.
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import type { Timestamp } from 'firebase-admin/firestore'
import { findingsPath, OPEN_STATUSES } from '#domain/findings.ts'
import { parseFindingsExport } from '#domain/report-json.ts'
import { compareScans, reopenCandidates } from '#domain/scan-comparison.ts'
import { scanMembersFromDocument, scanMembersPath, scanPath, type ScanMembers } from '#domain/scans.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'

const COMPANY = 'acme'
const db = () => sharedAdmin().db
const millis = (value: unknown) => (value as Timestamp).toMillis()
const count = (n: number) => n.toLocaleString('en')

async function membersOf(scanId: string): Promise<ScanMembers> {
  const out: ScanMembers = { findings: [], assets: [] }
  for (const d of (await db().collection(scanMembersPath(COMPANY, scanId)).get()).docs) {
    const part = scanMembersFromDocument(d.data())
    out.findings.push(...part.findings)
    out.assets.push(...part.assets)
  }
  return out
}

/** When each finding was first seen, as stored. */
async function firstSeen(ids: readonly string[]): Promise<Map<string, number>> {
  const refs = ids.map((id) => db().doc(`${findingsPath(COMPANY)}/${id}`))
  const docs = refs.length === 0 ? [] : await db().getAll(...refs)
  return new Map(docs.filter((d) => d.exists).map((d) => [d.id, millis(d.get('firstSeenAt'))]))
}

const group = (page: Page, title: string) => page.getByRole('main').getByTestId(`compare-${title}`)

test.describe('a reader of the full demo year', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('compares the two latest network scans of the year, each group as their members say', async ({ page }) => {
    test.setTimeout(120_000)
    await page.goto('/reports/network')
    const main = page.getByRole('main')
    // The scan the report opens at and the latest earlier scan of its scope, as the picker offers them.
    const picker = main.getByLabel('Compare with')
    await expect(picker).toBeEnabled()
    const targetId = await main.getByLabel('Scan', { exact: true }).inputValue()
    const baseId = (await picker.locator('option').evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value))).find(Boolean)
    expect(baseId, 'an earlier network scan of the same scope').toBeDefined()
    const scan = async (id: string) => ({ id, startedAt: millis((await db().doc(scanPath(COMPANY, id)).get()).get('startedAt')) })
    const [base, target, baseMembers, targetMembers] = await Promise.all([
      scan(baseId!),
      scan(targetId),
      membersOf(baseId!),
      membersOf(targetId),
    ])
    // A year's scan, not a handful of findings.
    expect(targetMembers.findings.length).toBeGreaterThan(100)
    const expected = compareScans(
      { scan: base, members: baseMembers },
      { scan: target, members: targetMembers },
      await firstSeen(reopenCandidates(baseMembers, targetMembers)),
    )

    await picker.selectOption(baseId!)
    await expect(page).toHaveURL(new RegExp(`[?&]compare=${baseId}`))
    const groups: Record<string, number> = {
      New: expected.new.length,
      Persisting: expected.persisting.length,
      'Not detected': expected.notDetected.length,
      Reopened: expected.reopened.length,
      'Severity changed': expected.severityChanged.length,
      'Assets new': expected.assetsNew.length,
      'Assets gone': expected.assetsGone.length,
      'Ports opened': expected.portsOpened.length,
      'Ports closed': expected.portsClosed.length,
    }
    // The first group waits for the whole comparison: the reads of first-seen times included.
    await expect(group(page, 'New').locator('summary span')).toHaveText(count(groups.New!), { timeout: 60_000 })
    for (const [title, n] of Object.entries(groups)) await expect(group(page, title).locator('summary span')).toHaveText(count(n))
    await expect(main.getByText(/could not be loaded/)).toHaveCount(0)
  })

  test("exports the DAST report's default view as JSON, every open finding, in seconds", async ({ page }) => {
    test.setTimeout(120_000)
    const open = (
      await db()
        .collection(findingsPath(COMPANY))
        .where('service', '==', 'dast')
        .where('status', 'in', [...OPEN_STATUSES])
        .count()
        .get()
    ).data().count
    // The browser's download, not the save-file picker (Playwright cannot answer its dialog).
    await page.addInitScript(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)
    await page.goto('/reports/dast')
    const exportButton = page.getByRole('button', { name: /^Export/ })
    await expect(exportButton).toBeEnabled({ timeout: 20_000 })
    await exportButton.click()
    const started = Date.now()
    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('menuitem', { name: /JSON/ }).click(),
    ])
    expect(await file.failure()).toBeNull()
    const took = Date.now() - started
    const parsed = parseFindingsExport(readFileSync((await file.path())!, 'utf8'))
    expect(parsed.success, JSON.stringify(parsed.issues?.slice(0, 3))).toBe(true)
    if (parsed.success) {
      expect(parsed.output.findings).toHaveLength(open)
      expect(parsed.output.findings.every((f) => OPEN_STATUSES.includes(f.status))).toBe(true)
    }
    test.info().annotations.push({ type: 'JSON export', description: `${count(open)} findings in ${took} ms` })
    console.log(`JSON export of the default view: ${count(open)} findings in ${took} ms`)
    expect(open).toBeGreaterThan(1_000)
    expect(took).toBeLessThan(20_000)
  })
})
