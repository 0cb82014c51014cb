// `npm run bench:exports`: exporting every open finding of Acme's DAST report (10,000 by default:
// BENCH_FINDINGS) from the report page, as a person would: the time from the click to the file,
// and the tab's JavaScript heap before and at its highest while the export runs (read through the
// DevTools protocol every 50 ms). One run per format (BENCH_FORMATS, default csv,json,pdf),
// printed, never asserted (browser.ts exportWithHeap measures, as for bench:scale). The demo seed's
// findings count; the run adds what is missing (with a description the size of a real one) and
// removes what it added. The production build in workerd, the emulators and Chromium, all on this
// machine.
import { chromium } from '@playwright/test'
import * as v from 'valibot'
import { findingPath, findingsPath, OPEN_STATUSES } from '#domain/findings.ts'
import { SEVERITIES } from '#domain/template-vocabulary.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { findingDocument } from '../builders.ts'
import { chromiumArgs, chromiumExecutable } from '../support/chromium.ts'
import { exportWithHeap, mb, signInByEmailLink } from './browser.ts'
import { withStack } from './preview-server.ts'

const WANTED = Number(process.env.BENCH_FINDINGS ?? 10_000)
const FORMATS = v.parse(v.array(v.picklist(['csv', 'json', 'sarif', 'pdf'])), (process.env.BENCH_FORMATS ?? 'csv,json,pdf').split(','))
const VIEWER = demoAccount('viewer@acme.example')
const { db } = sharedAdmin()

async function fill(): Promise<string[]> {
  const have = (
    await db
      .collection(findingsPath('acme'))
      .where('service', '==', 'dast')
      .where('status', 'in', [...OPEN_STATUSES])
      .count()
      .get()
  ).data().count
  const added: string[] = []
  const now = Date.now()
  for (let start = have; start < WANTED; start += 400) {
    const batch = db.batch()
    for (let i = start; i < Math.min(WANTED, start + 400); i++) {
      const id = `bench-export-${i}`
      batch.set(
        db.doc(findingPath('acme', id)),
        findingDocument(
          'dast',
          {
            fingerprint: id,
            severity: SEVERITIES[i % SEVERITIES.length]!,
            title: `Bench export finding ${i % 97}`,
            asset: `https://app${i % 40}.acme.example/path/${i}`,
            description: `A finding the scanner reported on page ${i}. `.repeat(12),
            tags: [`t${i % 12}`],
          },
          now - (i % 300) * 86_400_000,
        ),
      )
      added.push(id)
    }
    await batch.commit()
  }
  return added
}

async function measure(app: string) {
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs })
  try {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 900 } })
    // Downloads, not the save-file picker (nobody is there to answer it).
    await context.addInitScript(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker)
    const page = await context.newPage()
    await signInByEmailLink(page, app, VIEWER.email)
    console.log(`\nExport of Acme's open DAST findings (${WANTED.toLocaleString('en')} asked for), one run each in Chromium:`)
    for (const format of FORMATS) {
      await page.goto(`${app}/reports/dast`)
      const run = await exportWithHeap(page, format)
      console.log(
        `  ${format.toUpperCase().padEnd(5)} ${String(run.ms).padStart(7)} ms   heap before ${mb(run.heapBefore).padStart(9)}   peak ${mb(run.heapPeak).padStart(9)}   held ${mb(run.heldPeak).padStart(9)}   ${mb(run.bytes).padStart(9)} file   (${run.message})`,
      )
    }
  } finally {
    await browser.close()
  }
}

const onStack = <T>(run: (app: string) => Promise<T>) => (process.env.BENCH_APP_URL ? run(process.env.BENCH_APP_URL) : withStack(run))
await onStack(async (app) => {
  const added = await fill()
  try {
    await measure(app)
  } finally {
    for (let i = 0; i < added.length; i += 400) {
      const batch = db.batch()
      for (const id of added.slice(i, i + 400)) batch.delete(db.doc(findingPath('acme', id)))
      await batch.commit()
    }
  }
})
process.exit(0)
