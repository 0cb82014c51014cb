// `npm run bench:live`: how long an administrator's change takes to show on a signed-in user's
// screen. A company's Network switch is flipped repeatedly; each time, the time from the write's
// commit to the Network report link appearing or disappearing in the user's navigation is taken.
// The production build in workerd, the emulators and Chromium, all on this machine, in one run.
import { chromium } from '@playwright/test'
import { FieldValue } from 'firebase-admin/firestore'
import { companyPath } from '#domain/companies.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { chromiumArgs, chromiumExecutable } from '../support/chromium.ts'
import { withStack } from './preview-server.ts'

const FLIPS = Number(process.env.BENCH_FLIPS ?? 20)
const INBOX = 'http://127.0.0.1:1080'
const EMAIL = 'viewer@acme.example'

const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: chromiumArgs })
try {
  await withStack(async (app) => {
    const { db } = sharedAdmin()
    const page = await browser.newPage()

    const before = Date.now()
    await page.goto(`${app}/`)
    await page.getByRole('textbox', { name: 'Email' }).fill(EMAIL)
    await page.getByRole('button', { name: 'Login with Link' }).click()
    const mail = (await (await fetch(`${INBOX}/api/wait?to=${EMAIL}&after=${before}&timeout=20000`)).json()) as { links: string[] }
    await page.goto(mail.links.find((l) => l.includes('oobCode='))!)
    await page.waitForURL(`${app}/`)
    const network = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Network' })
    await network.waitFor()

    const samples: number[] = []
    for (let i = 0; i < FLIPS; i++) {
      const on = i % 2 === 1
      const result = await db
        .doc(companyPath('acme'))
        .update({ enableViewResultsNetwork: on, updatedAt: FieldValue.serverTimestamp(), updatedBy: 'bench@sectest.example' })
      const committedAt = result.writeTime.toMillis()
      await network.waitFor({ state: on ? 'visible' : 'detached' })
      samples.push(Date.now() - committedAt)
    }
    await db.doc(companyPath('acme')).update({ enableViewResultsNetwork: true })
    samples.sort((a, b) => a - b)
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!
    console.log(
      `\nadmin write → navigation change, ${FLIPS} flips: median ${at(0.5)} ms, p95 ${at(0.95)} ms, min ${samples[0]} ms, max ${samples.at(-1)} ms`,
    )
    console.log(`median against the one-second promise: ×${(at(0.5) / 1000).toFixed(2)}`)
  })
} finally {
  await browser.close()
}
