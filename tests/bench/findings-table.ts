// `npm run bench:findings`: how long the findings table of Acme's DAST report takes to filter and
// to sort, from the click to the changed rows on screen (the search index answers: decision 0038).
// The demo seed's findings are used when there are enough; otherwise the run adds its own (and
// removes them after), and waits for the index trigger to have them all. The production build in
// workerd, the emulators, the search emulator and Chromium, all on this machine, in one run.
import { chromium, type Page } from '@playwright/test'
import { FieldValue } from 'firebase-admin/firestore'
import { algoliasearch } from 'algoliasearch'
import { findingPath, findingsPath } from '#domain/findings.ts'
import { FINDINGS_INDEX } from '#domain/findings-search.ts'
import { algoliaHosts } from '#domain/template-search.ts'
import { searchEmulatorConfigFromEnv } from '../../emulators/search/config.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { findingDocument } from '../builders.ts'
import { chromiumArgs, chromiumExecutable } from '../support/chromium.ts'
import { withStack } from './preview-server.ts'

const WANTED = Number(process.env.BENCH_FINDINGS ?? 5_000)
const INBOX = 'http://127.0.0.1:1080'
const MANAGER = demoAccount('manager@acme.example')

const { db } = sharedAdmin()

/** Makes sure Acme's DAST report has WANTED findings; the ids this run added. */
async function fill(): Promise<string[]> {
  const have = (await db.collection(findingsPath('acme')).where('service', '==', 'dast').count().get()).data().count
  const added: string[] = []
  const now = Date.now()
  for (let start = have; start < WANTED; start += 400) {
    const batch = db.batch()
    for (let i = start; i < Math.min(WANTED, start + 400); i++) {
      const id = `bench-${i}`
      const severity = SEVERITIES[i % SEVERITIES.length]!
      const at = now - (i % 300) * 86_400_000
      batch.set(
        db.doc(findingPath('acme', id)),
        findingDocument(
          'dast',
          {
            fingerprint: id,
            severity,
            title: `Bench finding ${i % 97}`,
            asset: `https://app${i % 40}.acme.example/path/${i}`,
            tags: [`t${i % 12}`],
          },
          at,
        ),
      )
      added.push(id)
    }
    await batch.commit()
  }
  return added
}

const search = searchEmulatorConfigFromEnv()
const index = algoliasearch(search.appId, search.adminApiKey, {
  hosts: algoliaHosts({ hosts: [`${search.host}:${search.port}`], protocol: 'http' }, 'readWrite'),
})

/** Waits until the findings index holds as many of Acme's DAST findings as Firestore does. */
async function indexed(): Promise<void> {
  const want = (await db.collection(findingsPath('acme')).where('service', '==', 'dast').count().get()).data().count
  for (;;) {
    const { nbHits } = await index.searchSingleIndex({
      indexName: FINDINGS_INDEX,
      searchParams: { facetFilters: [['company:acme'], ['service:dast']], hitsPerPage: 0 },
    })
    if ((nbHits ?? 0) >= want) return
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

/** Milliseconds from clicking `button` to the next frame after the count above the table changed. */
async function timeClick(page: Page, button: string): Promise<number> {
  return page.evaluate(async (name) => {
    const section = [...document.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === 'Findings')!
    const status = section.querySelector('p[role="status"]')!
    const target = [...section.querySelectorAll('button')].find((b) => b.textContent?.trim().startsWith(name))!
    const before = status.textContent + document.querySelector('tbody')!.textContent!.slice(0, 400)
    const start = performance.now()
    target.click()
    await new Promise<void>((resolve) => {
      const check = () => {
        const now = status.textContent + document.querySelector('tbody')!.textContent!.slice(0, 400)
        if (now !== before) requestAnimationFrame(() => resolve())
        else requestAnimationFrame(check)
      }
      check()
    })
    return performance.now() - start
  }, button)
}

const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs })
// BENCH_APP_URL: the build already served there, against emulators already running.
const onStack = <T>(run: (app: string) => Promise<T>) => (process.env.BENCH_APP_URL ? run(process.env.BENCH_APP_URL) : withStack(run))
try {
  await onStack(async (app) => {
    const added = await fill()
    await indexed()
    const before = (await db.doc(userPreferencesPath(MANAGER.uid)).get()).data()?.defaultCompany as string | undefined
    await db.doc(userPreferencesPath(MANAGER.uid)).set({ defaultCompany: 'acme', updatedAt: FieldValue.serverTimestamp() }, { merge: true })
    try {
      await measure(app)
    } finally {
      await db.doc(userPreferencesPath(MANAGER.uid)).set({ defaultCompany: before ?? MANAGER.defaultCompany }, { merge: true })
      for (let i = 0; i < added.length; i += 400) {
        const batch = db.batch()
        for (const id of added.slice(i, i + 400)) batch.delete(db.doc(findingPath('acme', id)))
        await batch.commit()
      }
    }
  })
} finally {
  await browser.close()
}
process.exit(0)

async function measure(app: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  const sent = Date.now()
  await page.goto(`${app}/`)
  await page.getByRole('textbox', { name: 'Email' }).fill(MANAGER.email)
  await page.getByRole('button', { name: 'Login with Link' }).click()
  const mail = (await (await fetch(`${INBOX}/api/wait?to=${MANAGER.email}&after=${sent}&timeout=20000`)).json()) as { links: string[] }
  await page.goto(mail.links.find((l) => l.includes('oobCode='))!)
  await page.waitForURL(`${app}/`)

  const opened = Date.now()
  await page.goto(`${app}/reports/dast`)
  await page.getByRole('table').getByRole('link').first().waitFor({ timeout: 60_000 })
  const loaded = Date.now() - opened
  const total = await page.getByRole('region', { name: 'Findings' }).getByRole('status').first().textContent()

  const filter = await timeClick(page, 'High')
  const sort = await timeClick(page, 'Finding')
  const unfilter = await timeClick(page, 'High')
  const resort = await timeClick(page, 'Last seen')
  console.log(`\nAcme DAST findings table (${total}), one run in Chromium:`)
  console.log(`  open the report until the first rows show: ${loaded} ms`)
  console.log(`  filter by severity (High):                  ${filter.toFixed(1)} ms`)
  console.log(`  sort the filtered rows by title:            ${sort.toFixed(1)} ms`)
  console.log(`  remove the filter (every row, sorted):      ${unfilter.toFixed(1)} ms`)
  console.log(`  sort every row by last seen:                ${resort.toFixed(1)} ms`)
  console.log(`  slowest step against a 100 ms response:     ×${(Math.max(filter, sort, unfilter, resort) / 100).toFixed(2)}`)
}
