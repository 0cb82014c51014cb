// Home as the signed-in person's dashboard: what changed since their last visit (activity written
// with the Admin SDK as the functions write it), the bell with notifications arriving live, and
// the notification choices in settings.
import { randomUUID } from 'node:crypto'
import { FieldValue, Timestamp } from 'firebase-admin/firestore'
import { companyActivityPath } from '#domain/company-activity.ts'
import { NOTIFICATIONS_COLLECTION, notificationTypeLabels } from '#domain/notifications.ts'
import { userPreferencesPath } from '#domain/users-preferences.ts'
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { expect, test } from './fixtures'
import { DashboardPage, notificationChoice } from './pages/dashboard'
import { preferencesOf } from './support/admin'

// Acme's viewer: DAST and network enabled for them, Acme has every service.
const viewer = demoAccount('viewer@acme.example')
const db = () => sharedAdmin().db
const run = `e2e-${randomUUID().slice(0, 8)}`
const minutesAgo = (n: number) => Timestamp.fromMillis(Date.now() - n * 60_000)

async function writeActivity(id: string, service: string, type: string, count: number, at: Timestamp) {
  await db()
    .doc(`${companyActivityPath('acme')}/${run}-${id}`)
    .set({ type, service, summary: `${type} ${run}`, count, at, byName: 'Analyst' })
}

async function clearNotifications(uid: string) {
  const mine = await db().collection(NOTIFICATIONS_COLLECTION).where('uid', '==', uid).get()
  await Promise.all(mine.docs.map((d) => d.ref.delete()))
}

async function notifyViewer(title: string) {
  await db().collection(NOTIFICATIONS_COLLECTION).add({
    uid: viewer.uid,
    type: 'scan_published',
    company: 'acme',
    service: 'dast',
    title,
    body: 'Monthly DAST scan',
    link: '/reports/dast',
    read: false,
    createdAt: Timestamp.now(),
  })
}

test.describe('dashboard', () => {
  test.describe.configure({ mode: 'serial' })
  test.use({ signedInAs: viewer.email })

  test.afterAll(async () => {
    const mine = await db().collection(companyActivityPath('acme')).where('summary', '>=', '').get()
    await Promise.all(mine.docs.filter((d) => d.id.startsWith(run)).map((d) => d.ref.delete()))
    await clearNotifications(viewer.uid)
    await db().doc(userPreferencesPath(viewer.uid)).set({ notifications: FieldValue.delete() }, { merge: true })
  })

  test('shows what changed since the last visit in the services the person may see, as working links', async ({ shell, page }) => {
    const lastVisit = minutesAgo(60)
    await db().doc(userPreferencesPath(viewer.uid)).set({ lastVisitAt: lastVisit }, { merge: true })
    await writeActivity('new', 'dast', 'findings_new', 4, minutesAgo(10))
    await writeActivity('scan', 'network', 'scan_published', 1, minutesAgo(5))
    await writeActivity('before', 'dast', 'findings_fixed', 500, minutesAgo(120))
    await writeActivity('cloud', 'cloud', 'scan_published', 1, minutesAgo(5))

    const dashboard = new DashboardPage(page)
    await shell.open('/')
    await expect(dashboard.heading).toHaveText('Welcome back')
    await expect(dashboard.change(/new findings? in DAST/)).toContainText('4 new findings in DAST')
    // A published scan has its own line, naming it (other tests may publish network scans for Acme too).
    await expect(dashboard.change(new RegExp(`^Network: scan_published ${run} Opens the Network report`))).toBeVisible()
    // Before the last visit, and a service the viewer does not have: not there. Other tests may fix
    // a few DAST findings of Acme in the hour; the 500 written two hours ago are not counted in.
    await expect(dashboard.changes).not.toContainText(/\b\d{3,} findings fixed in DAST/)
    await expect(dashboard.changes).not.toContainText('Cloud')

    // Seen: the visit is stamped with the server's time.
    await expect
      .poll(async () => ((await preferencesOf(viewer.uid)).lastVisitAt as Timestamp | undefined)?.toMillis() ?? 0)
      .toBeGreaterThan(lastVisit.toMillis())

    await dashboard.change(/new findings? in DAST/).click()
    await expect(page).toHaveURL(/\/reports\/dast(\?scan=[^&]+)?$/)
  })

  test('a notification written by the server appears live in the bell, and mark all read clears the count', async ({ shell, page }) => {
    await clearNotifications(viewer.uid)
    const dashboard = new DashboardPage(page)
    await shell.open('/')
    await expect(dashboard.bell).toHaveAccessibleName('Notifications')
    await expect(dashboard.bellCount).toBeHidden()

    await notifyViewer(`Scan published ${run}`)
    await notifyViewer(`New critical finding ${run}`)
    await expect(dashboard.bellCount).toHaveText('2')
    await expect(dashboard.bell).toHaveAccessibleName('Notifications, 2 unread')

    await dashboard.openNotifications()
    await expect(dashboard.notifications.getByRole('link', { name: new RegExp(`Scan published ${run}`) })).toHaveAttribute(
      'href',
      '/reports/dast',
    )
    await dashboard.markAllRead()
    await expect(dashboard.bellCount).toBeHidden()
    // The count goes at once (the browser's own write); the server holds it once the write is done.
    await expect
      .poll(async () =>
        (await db().collection(NOTIFICATIONS_COLLECTION).where('uid', '==', viewer.uid).get()).docs.map((d) => d.data().read),
      )
      .toEqual([true, true])
    await page.reload()
    await expect(dashboard.bell).toBeEnabled()
    await expect(dashboard.bellCount).toBeHidden()
  })

  test('notification choices save at once and persist across a reload', async ({ shell, settings, page }) => {
    await shell.open('/')
    await settings.goto()
    const byEmail = notificationChoice(page, notificationTypeLabels.scan_published, 'by email')
    const inApp = notificationChoice(page, notificationTypeLabels.sla_due_soon, 'in the app')
    await expect(byEmail).toBeChecked()
    await expect(inApp).toBeChecked()
    await expect(byEmail).toBeEnabled()

    await byEmail.uncheck()
    await inApp.uncheck()
    await expect
      .poll(async () => (await preferencesOf(viewer.uid)).notifications)
      .toMatchObject({ scan_published: { email: false, inApp: true }, sla_due_soon: { inApp: false } })

    await page.reload()
    await expect(byEmail).toBeEnabled()
    await expect(byEmail).not.toBeChecked()
    await expect(inApp).not.toBeChecked()
    await expect(notificationChoice(page, notificationTypeLabels.scan_published, 'in the app')).toBeChecked()
  })
})
