import type { Page } from '@playwright/test'
import { pageRules, seesAllCompanies, showsCompanyName, type Access } from '#domain/access.ts'
import { selectCompany } from '#domain/company-selection.ts'
import { services } from '#domain/services.ts'
import { exampleUrl, FINDING_PAGE, sitePages } from '#domain/site-map.ts'
import { navItems } from '../../app/features/navigation/nav-items'
import { DEMO_ACCOUNTS, DEMO_COMPANIES, demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'
import { Shell } from './pages/shell'
import { WORKSPACE_MARK_COOKIE } from '../../app/core/workspace-mark'
import { preferencesOf, setCompanyFlags, setPreferences } from './support/admin'

/** Every member page as concrete addresses, with the rule's service parameter where it has one. */
interface MemberPage {
  url: string
  rule: string
  service: string | undefined
}

const memberPages: MemberPage[] = sitePages
  .filter((p) => p.signIn)
  .flatMap((p): MemberPage[] => {
    if (p.path === FINDING_PAGE) return [{ url: exampleUrl(p), rule: FINDING_PAGE, service: 'dast' }]
    if (p.path.startsWith('/reports/')) {
      const service = services.find((s) => p.path === `/reports/${s.id}`)!
      return [{ url: p.path, rule: '/reports/$service', service: service.id }]
    }
    if (p.path.startsWith('/analyst/services/')) {
      const service = services.find((s) => p.path === `/analyst/services/${s.analystSlug}`)!
      return [{ url: p.path, rule: '/analyst/services/$service', service: service.id }]
    }
    return [{ url: p.path, rule: p.path, service: undefined }]
  })

/** What the seed gives each demo account: their access and the company they start in. */
function expectedContext(email: string) {
  const account = demoAccount(email)
  const access: Access = {
    accessLevel: account.accessLevel,
    userType: account.userType,
    servicesEnabled: account.servicesEnabled,
    servicesManaged: account.servicesManaged,
  }
  const companies = DEMO_COMPANIES.filter((c) => seesAllCompanies(access) || account.companies.includes(c.slug)).sort((a, b) =>
    a.companyName.localeCompare(b.companyName),
  )
  const slug = selectCompany(
    companies.map((c) => c.slug),
    account.defaultCompany,
  )
  return { access, company: companies.find((c) => c.slug === slug) ?? null, companyCount: companies.length }
}

/** The browser's workspace mark (decision 0029). */
const workspaceMark = async (page: Page) => (await page.context().cookies()).find((c) => c.name === WORKSPACE_MARK_COOKIE)?.value

type Probe = Window & { __TSR_ROUTER__: { navigate: (o: { href: string }) => Promise<void> } }

async function opens(page: Page, url: string): Promise<boolean> {
  await page.evaluate((href) => (window as unknown as Probe).__TSR_ROUTER__.navigate({ href }), url)
  const main = new Shell(page).main
  await expect(main.getByRole('heading', { level: 1 })).toBeVisible()
  const denied = await main.getByRole('heading', { name: /You don't have access|You must be signed in/ }).count()
  return denied === 0
}

/** The links' accessible names. */
const navNames = (items: ReturnType<typeof navItems>): string[] => items.flatMap((i) => [i, ...(i.children ?? [])]).map((i) => i.label)

test.describe('each person sees exactly what their access allows', () => {
  for (const account of DEMO_ACCOUNTS) {
    test.describe(() => {
      test.use({ signedInAs: account.email })

      test(`${account.email}: navigation and every member page follow the permission module`, async ({ page, shell }) => {
        await shell.open('/')
        const context = expectedContext(account.email)

        const session = { uid: account.uid, email: account.email, userType: account.userType, accessLevel: account.accessLevel }
        const expectedNav = navNames(
          navItems(session, {
            ...context,
            preferences: { defaultCompany: account.defaultCompany, displayName: '', photoURL: '' },
            companies: [],
          }),
        )
        const navLinks = shell.nav.getByRole('link')
        await expect(navLinks).toHaveCount(expectedNav.length)
        for (const [i, name] of expectedNav.entries()) await expect(navLinks.nth(i)).toHaveAccessibleName(name)

        const mismatches: string[] = []
        for (const p of memberPages) {
          const expected = pageRules[p.rule]!(context, p.service)
          if ((await opens(page, p.url)) !== expected) mismatches.push(`${p.url}: expected ${expected ? 'open' : 'refused'}`)
        }
        expect(mismatches).toEqual([])

        const companyName = page.getByTestId('company-name')
        // Analysts see it, and so does everyone with more than one company.
        if ((showsCompanyName(context.access) || context.companyCount > 1) && context.company)
          await expect(companyName).toHaveText(context.company.companyName)
        else await expect(companyName).toHaveCount(0)
      })
    })
  }
})

test.describe('the manager', () => {
  test.use({ signedInAs: 'manager@acme.example' })

  test('the company switcher in the user menu changes the context, and the choice is kept for the next visit', async ({ page, shell }) => {
    await shell.open('/')
    await expect(await shell.company('Globex')).toHaveAttribute('aria-checked', 'true')
    await shell.closeUserMenu()
    await expect(shell.navLink('Network')).toBeVisible()

    const markBefore = await workspaceMark(page)
    await shell.chooseCompany('Initech')
    await expect(shell.navLink('DAST')).toBeVisible()
    await expect(shell.navLink('Network')).toHaveCount(0)
    // The browser marks the change it saw, so the edge reads the workspace afresh (next test).
    await expect.poll(() => workspaceMark(page)).not.toBe(markBefore)

    // The page shows the choice at once; the next visit sees it once the server has it, in the
    // server's own HTML (before any listener runs): Initech's, without a Network link.
    await expect.poll(async () => (await preferencesOf(demoAccount('manager@acme.example').uid)).defaultCompany).toBe('initech')
    const rendered = await (await page.reload())!.text()
    expect(rendered).toContain('href="/reports/dast"')
    expect(rendered).not.toContain('href="/reports/network"')
    await expect(await shell.company('Initech')).toHaveAttribute('aria-checked', 'true')
    await shell.closeUserMenu()
    await expect(shell.navLink('DAST')).toBeVisible()
    await shell.chooseCompany('Globex')
    await expect(shell.navLink('Network')).toBeVisible()
    await expect.poll(async () => (await preferencesOf(demoAccount('manager@acme.example').uid)).defaultCompany).toBe('globex')
  })

  test('the edge keeps a workspace it read for a few seconds, and reads it again for a browser that marked a change', async ({
    page,
    baseURL,
  }) => {
    const uid = demoAccount('manager@acme.example').uid
    const before = (await preferencesOf(uid)).defaultCompany
    // No page runs: only these requests, with the saved sign-in's cookies, reach the edge.
    const networkLink = 'href="/reports/network"'
    const render = async () => (await page.request.get('/reports')).text()
    try {
      await setPreferences(uid, { defaultCompany: 'globex' })
      expect(await render()).toContain(networkLink)
      // Changed behind the edge's back, as by another device; a browser that saw it marks it.
      await setPreferences(uid, { defaultCompany: 'initech' })
      await page.context().addCookies([{ name: WORKSPACE_MARK_COOKIE, value: 'seenchange', url: baseURL! }])
      expect(await render()).not.toContain(networkLink)
    } finally {
      await setPreferences(uid, { defaultCompany: (before as string | undefined) ?? null })
    }
  })
})

test.describe('the client viewer', () => {
  test.use({ signedInAs: 'viewer@acme.example' })

  test('the user menu holds settings, a disabled search item and sign-out; one company means no switcher', async ({ page, shell }) => {
    await shell.open('/')
    const menu = await shell.openUserMenu()
    await expect(menu.getByRole('menuitem', { name: /Search/ })).toHaveAttribute('aria-disabled', 'true')
    await expect(menu.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
    await expect(menu.getByRole('menuitemradio')).toHaveCount(0)
    await menu.getByRole('menuitem', { name: 'Settings' }).click()
    await expect(page).toHaveURL('/profile')
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
  })

  test('the user menu stays open while the mouse is over it and closes once it has left', async ({ page, shell }) => {
    await shell.open('/')
    const menu = await shell.openUserMenu()
    await menu.getByRole('menuitem', { name: 'Settings' }).hover()
    await expect(menu.getByRole('menuitem', { name: 'Settings' })).toBeFocused()
    await expect(menu).toBeVisible()
    const box = (await menu.boundingBox())!
    await page.mouse.move(box.x - 200, box.y + box.height + 200)
    await expect(menu).toBeHidden()
    await expect(shell.userMenuButton).toHaveAttribute('aria-expanded', 'false')
  })

  test('turning a service off hides its report live, and turning it on shows it again', async ({ page, shell }) => {
    await shell.open('/reports/network')
    await expect(shell.navLink('Network')).toBeVisible()
    await page.evaluate(() => ((window as { __stayed?: boolean }).__stayed = true))

    await setCompanyFlags('acme', { enableViewResultsNetwork: false })
    await expect(shell.navLink('Network')).toHaveCount(0)
    await expect(shell.accessDenied).toBeVisible()

    await setCompanyFlags('acme', { enableViewResultsNetwork: true })
    await expect(shell.navLink('Network')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Network report' })).toBeVisible()
    expect(await page.evaluate(() => (window as { __stayed?: boolean }).__stayed)).toBe(true)
  })
})

test.describe('the company admin', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('the settings page lists the user’s own sign-ins, live', async ({ page, shell }) => {
    await shell.open('/profile')
    const activity = page.getByRole('region', { name: 'Recent activity' })
    await expect(activity.getByRole('listitem').first()).toContainText('Signed in')
  })
})
