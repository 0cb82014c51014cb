// Scan comparison as a reader of the results: two network scans written as a publication leaves
// them (the newest of the service, so the picker lists them first), compared from the picker, the
// choice kept in the address (reloaded and server-rendered), and the comparison downloaded.
import { readFileSync } from 'node:fs'
import type { Download, Page } from '@playwright/test'
import { Timestamp } from 'firebase-admin/firestore'
import Papa from 'papaparse'
import { findingPath } from '#domain/findings.ts'
import { parseComparisonExport } from '#domain/scan-comparison-export.ts'
import { scanMembersPath, scanPath } from '#domain/scans.ts'
import { storedTimes } from '#domain/stored.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { findingDocument } from '../builders.ts'
import { expect, test } from './fixtures'
import { deleteFindings } from './support/findings'

const COMPANY = 'acme'
const DAY = 86_400_000
const now = Date.now()
const BASE = 'e2e-compare-base'
const TARGET = 'e2e-compare-target'
const id = (name: string) => `e2e-compare-${name}`

const db = () => sharedAdmin().db
const stored = (value: object) => storedTimes(value, Timestamp.fromMillis) as Record<string, unknown>

const scan = (scanId: string, title: string, startedAt: number, publishedAt: number) => ({
  service: 'network',
  state: 'published',
  title,
  tool: 'nmap',
  scopeKey: 'e2e-compare',
  targets: ['10.9.0.0/24'],
  startedAt,
  finishedAt: startedAt + 3_600_000,
  publishedAt,
  publishedBy: 'analyst@sectest.example',
  previousScanId: scanId === TARGET ? BASE : null,
  counts: { bySeverity: {}, total: 0, new: 0, persisting: 0, notDetected: 0, reopened: 0 },
  stats: { service: 'network', hostsUp: 3, openPorts: 4 },
  updatedAt: publishedAt,
  updatedBy: 'analyst@sectest.example',
})

const baseStart = now - 2 * DAY
const targetStart = now - DAY

// What each scan saw. `back` was fixed long before the base ran and is seen again: reopened.
const members = {
  [BASE]: {
    findings: [
      { id: id('persist'), severity: 'high' },
      { id: id('sev'), severity: 'medium' },
      { id: id('gone'), severity: 'low' },
    ],
    assets: [
      { id: 'e2e-h1', label: '10.9.0.1', ports: [22, 443] },
      { id: 'e2e-h2', label: '10.9.0.2', ports: [80] },
    ],
  },
  [TARGET]: {
    findings: [
      { id: id('persist'), severity: 'high' },
      { id: id('sev'), severity: 'critical' },
      { id: id('new'), severity: 'medium' },
      { id: id('back'), severity: 'high' },
    ],
    assets: [
      { id: 'e2e-h1', label: '10.9.0.1', ports: [443, 8443] },
      { id: 'e2e-h3', label: '10.9.0.3', ports: [25] },
    ],
  },
}

const findings = {
  [id('persist')]: findingDocument('network', { title: 'E2E compare: persisting', firstSeenAt: baseStart }, baseStart),
  [id('sev')]: findingDocument('network', { title: 'E2E compare: worse now', severity: 'critical', firstSeenAt: baseStart }, baseStart),
  [id('gone')]: findingDocument('network', { title: 'E2E compare: gone', severity: 'low', firstSeenAt: baseStart }, baseStart),
  [id('new')]: findingDocument('network', { title: 'E2E compare: brand new', severity: 'medium', firstSeenAt: targetStart }, targetStart),
  [id('back')]: findingDocument(
    'network',
    { title: 'E2E compare: back again', regression: true, firstSeenAt: now - 90 * DAY },
    targetStart,
  ),
}

test.beforeAll(async () => {
  const batch = db().batch()
  batch.set(db().doc(scanPath(COMPANY, BASE)), stored(scan(BASE, 'E2E compare base', baseStart, now - 60_000)))
  batch.set(db().doc(scanPath(COMPANY, TARGET)), stored(scan(TARGET, 'E2E compare target', targetStart, now)))
  for (const [scanId, saw] of Object.entries(members)) batch.set(db().doc(`${scanMembersPath(COMPANY, scanId)}/0`), saw)
  for (const [findingId, finding] of Object.entries(findings)) batch.set(db().doc(findingPath(COMPANY, findingId)), stored(finding))
  await batch.commit()
})

test.afterAll(async () => {
  // Clean-up on a busy machine: the emulator may still be indexing the test's findings.
  test.setTimeout(120_000)
  const batch = db().batch()
  for (const scanId of [BASE, TARGET]) {
    batch.delete(db().doc(`${scanMembersPath(COMPANY, scanId)}/0`))
    batch.delete(db().doc(scanPath(COMPANY, scanId)))
  }
  await batch.commit()
  await deleteFindings(COMPANY, Object.keys(findings))
})

const group = (page: Page, title: string) => page.getByRole('main').getByTestId(`compare-${title}`)

async function download(page: Page, name: string): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()])
  expect(await file.failure()).toBeNull()
  return file
}

const text = async (file: Download) => readFileSync(await file.path(), 'utf8')

test.describe('a reader of the results', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('compares two scans from the picker, links the comparison and downloads it', async ({ page }) => {
    test.setTimeout(60_000)
    await page.goto('/reports/network')
    const main = page.getByRole('main')
    await expect(main.getByLabel('Scan', { exact: true })).toHaveValue(TARGET)
    await main.getByLabel('Compare with').selectOption(BASE)
    await expect(page).toHaveURL(new RegExp(`[?&]compare=${BASE}`))

    const counts: Record<string, string> = {
      New: '1',
      Persisting: '2',
      'Not detected': '1',
      Reopened: '1',
      'Severity changed': '1',
      'Assets new': '1',
      'Assets gone': '1',
      'Ports opened': '2',
      'Ports closed': '2',
    }
    for (const [title, count] of Object.entries(counts)) await expect(group(page, title).locator('summary span')).toHaveText(count)
    await group(page, 'Reopened').locator('summary').click()
    await expect(group(page, 'Reopened').getByRole('listitem')).toHaveText([/E2E compare: back again\s*High/])
    await group(page, 'New').locator('summary').click()
    await expect(group(page, 'New').getByRole('listitem')).toHaveText([/E2E compare: brand new\s*Medium/])
    await group(page, 'Ports opened').locator('summary').click()
    await expect(group(page, 'Ports opened').getByRole('listitem')).toHaveText(['10.9.0.1:8443', '10.9.0.3:25'])

    const csv = await download(page, 'Comparison CSV')
    expect(csv.suggestedFilename()).toMatch(/^acme-corporation-network-comparison-\d{4}-\d{2}-\d{2}\.csv$/)
    const rows = Papa.parse<string[]>((await text(csv)).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data
    expect(rows[0]).toEqual(['Change', 'ID', 'Title or asset', 'Asset', 'Severity', 'Previous severity', 'Port'])
    expect(rows).toHaveLength(1 + 12)
    expect(rows.find((r) => r[0] === 'Reopened')?.slice(1, 3)).toEqual([id('back'), 'E2E compare: back again'])
    expect(rows.find((r) => r[0] === 'Severity changed')?.slice(4, 6)).toEqual(['Critical', 'Medium'])
    expect(rows.filter((r) => r[0] === 'Port closed').map((r) => `${r[2]}:${r[6]}`)).toEqual(['10.9.0.1:22', '10.9.0.2:80'])

    const json = await download(page, 'Comparison JSON')
    const parsed = parseComparisonExport(await text(json))
    expect(parsed.success, JSON.stringify(parsed.issues?.slice(0, 3))).toBe(true)
    if (parsed.success) {
      expect(parsed.output.base.id).toBe(BASE)
      expect(parsed.output.target.id).toBe(TARGET)
      expect(parsed.output.counts).toEqual({
        new: 1,
        reopened: 1,
        persisting: 2,
        not_detected: 1,
        severity_changed: 1,
        asset_new: 1,
        asset_gone: 1,
        port_opened: 2,
        port_closed: 2,
      })
    }

    // The address holds the choice: a reload shows the same comparison, and the server renders it.
    const address = page.url()
    await page.reload()
    await expect(main.getByLabel('Compare with')).toHaveValue(BASE)
    await expect(group(page, 'Reopened').locator('summary span')).toHaveText('1')
    const html = await (await page.context().request.get(address)).text()
    expect(html).toContain('id="comparison-title"')
    expect(html).toMatch(new RegExp(`<option value="${BASE}" selected="">`))
  })
})
