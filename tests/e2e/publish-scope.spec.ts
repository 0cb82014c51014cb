// Publishing is scope-safe (decision 0045), end to end: an Nmap file of one host, imported for Acme
// with the defaults, is told apart in the publish dialog as a side scan that marks nothing not
// detected, publishes without changing any other of Acme's network findings and does not become
// the report's Latest; a second file of that host compares with the first, and the dialog counts
// before the click the one finding it then marks not detected.
import { randomInt, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findingsPath } from '#domain/findings.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'
import { AnalystServicePage } from './pages/analyst'
import { preferencesOf, setPreferences } from './support/admin'

const SENIOR = demoAccount('senior@sectest.example')
const TEMPLATE = readFileSync('tests/fixtures/scans/nmap_xml/nmap_script_vulners.xml', 'utf8')

/** An Nmap file of one host, its two vulners CVEs on port 5022 (the second one swapped for `second`). */
function nmapFile(dir: string, name: string, host: string, second = 'CVE-2017-15906'): string {
  const path = join(dir, name)
  writeFileSync(path, TEMPLATE.replaceAll('192.168.0.1', host).replaceAll('CVE-2017-15906', second))
  return path
}

/** Every Acme network finding, as the fields a publication changes, by id. */
async function networkFindings(): Promise<Map<string, { state: string; host: string; rule: string; status: string }>> {
  const docs = (
    await sharedAdmin()
      .db.collection(findingsPath('acme'))
      .where('service', '==', 'network')
      .select('status', 'lastSeenScanId', 'seenCount', 'updatedAt', 'location', 'title')
      .get()
  ).docs
  return new Map(
    docs.map((d) => [
      d.id,
      {
        state: JSON.stringify([d.get('status'), d.get('lastSeenScanId'), d.get('seenCount'), d.get('updatedAt')]),
        host: String(d.get('location')?.host ?? ''),
        rule: String(d.get('title') ?? ''),
        status: String(d.get('status')),
      },
    ]),
  )
}

const changedSince = (before: Map<string, { state: string }>, after: Map<string, { state: string }>) =>
  [...after].filter(([id, now]) => before.get(id)?.state !== now.state).map(([id]) => id)

let before: unknown
test.beforeAll(async () => {
  before = (await preferencesOf(SENIOR.uid)).defaultCompany
  await setPreferences(SENIOR.uid, { defaultCompany: 'acme' })
})
test.afterAll(async () => {
  await setPreferences(SENIOR.uid, { defaultCompany: before ?? null })
})

test.describe('as a senior analyst', () => {
  test.use({ signedInAs: SENIOR.email })

  test('a side scan of one host changes no other finding, and the dialog counts what a scan of its scope marks not detected', async ({
    page,
  }) => {
    test.setTimeout(180_000)
    const dir = mkdtempSync(join(tmpdir(), 'publish-scope-'))
    const host = `10.77.${randomInt(1, 255)}.${randomInt(1, 255)}`
    const run = randomUUID().slice(0, 8)
    const analyst = new AnalystServicePage(page)
    await analyst.open('network')

    // A file of one host, with the defaults: it compares with earlier scans of its own targets.
    const first = `One host ${run}`
    await analyst.importFiles([nmapFile(dir, `host-${run}.xml`, host)], first, null)
    const initially = await networkFindings()
    expect(initially.size).toBeGreaterThan(100)
    let dialog = await analyst.openPublish()
    const said = dialog.getByRole('group', { name: 'What publishing does' })
    await expect(said).toContainText('No published scan has this scope: it compares with nothing.')
    await expect(said).toContainText(`A side scan of ${host}: it closes no finding outside this scope`)
    await expect(said).toContainText('No open finding becomes not detected.')
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.screenshot({ path: `.local/screenshots/publish-side-scan-${scheme}.png` })
    }
    await page.emulateMedia({ colorScheme: 'light' })
    await dialog.getByRole('button', { name: 'Publish' }).click()
    await expect(dialog).toHaveCount(0, { timeout: 60_000 })
    const summary = analyst.shell.main.getByRole('region', { name: `Scan ${first}` })
    await expect(summary).toContainText(`A side scan of ${host}: it closed no finding outside its scope`)
    await expect(summary).toContainText('2 findings, 2 new, 0 persisting, 0 not detected, 0 reopened.')
    const row = analyst.scans.getByRole('row').filter({ hasText: first })
    await expect(row).toContainText('Published')
    await expect(row).toContainText('Side scan')

    // Not one of Acme's other network findings changed: only the host's two are new.
    const afterSide = await networkFindings()
    const added = changedSince(initially, afterSide)
    expect(added).toHaveLength(2)
    for (const id of added) {
      expect(initially.has(id)).toBe(false)
      expect(afterSide.get(id)!.host).toBe(host)
    }
    expect(afterSide.size).toBe(initially.size + 2)

    // A second file of the host compares with the first: the dialog counts, before the click, the one it no longer lists.
    const second = `One host again ${run}`
    await analyst.importFiles([nmapFile(dir, `host-again-${run}.xml`, host, 'CVE-2017-15907')], second, null)
    dialog = await analyst.openPublish()
    await expect(dialog.getByRole('group', { name: 'What publishing does' })).toContainText(`Compared with ${first} (`)
    await expect(dialog.getByRole('group', { name: 'What publishing does' })).toContainText(
      '1 open finding of this scope that it does not list becomes not detected.',
    )
    await page.screenshot({ path: '.local/screenshots/publish-count.png' })
    await page.setViewportSize({ width: 375, height: 800 })
    await page.screenshot({ path: '.local/screenshots/publish-count-375.png' })
    await page.setViewportSize({ width: 1440, height: 900 })
    await dialog.getByRole('button', { name: 'Publish' }).click()
    await expect(dialog).toHaveCount(0, { timeout: 60_000 })
    const afterAgain = await networkFindings()
    const changed = changedSince(afterSide, afterAgain)
    // The persisting CVE, the new one and the one no longer listed; nothing of any other host.
    expect(changed).toHaveLength(3)
    for (const id of changed) expect(afterAgain.get(id)!.host).toBe(host)
    const gone = changed.filter((id) => afterAgain.get(id)!.status === 'not_detected')
    expect(gone).toHaveLength(1)
    expect(afterAgain.get(gone[0]!)!.rule).toContain('CVE-2017-15906')

    // The client's report still opens on the whole service's latest scan; the side scans are named so.
    await page.goto('/reports/network')
    const picker = page.getByRole('main').getByLabel('Scan', { exact: true })
    await expect(picker.locator('option').filter({ hasText: first })).toHaveText(
      new RegExp(`^Side scan of ${host.replaceAll('.', '\\.')}: ${first}`),
    )
    await expect(picker.locator('option').filter({ hasText: /^Latest: / })).not.toContainText(run)
  })
})
