// Administration of companies and DAST keys in Chromium: the platform admin creates a company with
// its services and scope and switches a service on its page (audited); a company admin makes a
// DAST key that is shown once, works, and stops working once revoked; a senior analyst follows the
// fleet's changes on /admin and reads a company's trail.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { companyPath } from '#domain/companies.ts'
import { slugFromName } from '#domain/company-admin.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { ROOT } from '../../emulators/firebase/env.ts'
import { verifyDastKey } from '../../functions/src/admin/dast-keys.ts'
import { expect, test } from './fixtures'
import { CompaniesPage, DastKeysPage } from './pages/admin-org'
import { documentOf } from './support/admin'

const DAST_SECRET = /^DAST_KEY_SECRET=(.+)$/m.exec(readFileSync(`${ROOT}/functions/.env.demo-sectest`, 'utf8'))![1]!

test.describe('companies', () => {
  test.use({ signedInAs: 'platform@sectest.example' })

  test('the platform admin creates a company with its services and scope, then switches a service on its page', async ({ page }) => {
    const companies = new CompaniesPage(page)
    await companies.openCreate()
    // The catalogue's defaults (attack surface and DAST) start ticked; triggering never does.
    await expect(companies.service('DAST results')).toBeChecked()
    await expect(companies.service('DAST triggering from pipelines')).not.toBeChecked()
    await companies.service('DAST triggering from pipelines').check()
    await companies.addScopeEntry('Domain and subdomains', 'e2e-company.example')
    await companies.addScopeEntry('IP range', '203.0.113.0/24')
    // A range with host bits is refused with the server's own words.
    await page.getByLabel('Kind').selectOption({ label: 'IP range' })
    await page.getByLabel('Entry', { exact: true }).fill('203.0.113.1/24')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await expect(page.getByText('203.0.113.1/24 has host bits set: did you mean 203.0.113.0/24?')).toBeVisible()

    const name = `E2E Company ${randomUUID().slice(0, 6)}`
    const slug = slugFromName(name)
    await companies.create(name)
    await expect(page).toHaveURL(new RegExp(`/admin/company\\?company=${slug}$`))
    await expect(companies.scope.getByText('e2e-company.example')).toBeVisible()
    await expect(companies.scope.getByText('203.0.113.0/24')).toBeVisible()
    expect(await documentOf(companyPath(slug))).toMatchObject({ companyName: name, enableDast: true, enableDastTriggering: true })
    await expect(companies.auditRows().filter({ hasText: 'Company created' })).toHaveCount(1)

    // The switches autosave; the company document and its trail follow.
    await companies.service('Network results').check()
    // Waits sized for the autosave's callable and the trail's listener on a busy machine.
    await expect.poll(async () => (await documentOf(companyPath(slug)))?.enableViewResultsNetwork, { timeout: 20_000 }).toBe(true)
    await expect(companies.auditRows().filter({ hasText: 'Company changed' })).toHaveCount(1, { timeout: 20_000 })

    // The list finds it.
    await companies.shell.open('/admin/company')
    await page.getByRole('searchbox', { name: 'Search companies' }).fill(name)
    await expect(page.getByRole('table', { name: 'Companies' }).getByRole('link', { name })).toBeVisible()
  })

  test('the service catalogue names who manages each service, with how many they are', async ({ page }) => {
    const companies = new CompaniesPage(page)
    await companies.shell.open('/admin/app/services')
    const cracking = page.getByRole('region', { name: 'Password cracking' })
    await expect(cracking.getByText(/Showing \d+ of \d+ (person|people)/)).toBeVisible({ timeout: 20_000 })
    await expect(cracking.getByText(/analyst@sectest\.example/)).toBeVisible()
  })
})

test.describe('DAST keys', () => {
  test.use({ signedInAs: 'admin@acme.example' })

  test('a key is shown once, verifies, and is refused once revoked', async ({ page }) => {
    const keys = new DastKeysPage(page)
    await keys.open()
    const name = `Pipeline ${randomUUID().slice(0, 6)}`
    const token = await keys.create(name, ['app.acme.example'])
    expect(token).toMatch(/^bwk_dast_[0-9A-Za-z]{62}$/)

    const row = keys.row(name)
    await expect(row).toContainText('Active')
    await expect(row).toContainText(`…${token.slice(-4)}`)
    // Shown once: neither the list nor a reload shows it again.
    await expect(page.getByText(token)).toHaveCount(0)
    await page.reload()
    await expect(keys.row(name)).toContainText('Active')
    expect(await page.content()).not.toContain(token)

    const db = sharedAdmin().db
    expect(await verifyDastKey(db, token, { secret: DAST_SECRET, target: 'https://app.acme.example/' })).toMatchObject({ ok: true })

    await keys.revoke(name)
    await expect(keys.row(name)).toContainText('Revoked')
    await expect(keys.row(name).getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0)
    expect(await verifyDastKey(db, token, { secret: DAST_SECRET })).toEqual({ ok: false, reason: 'revoked' })
  })
})

test.describe('the audit trail of a senior analyst', () => {
  test.use({ signedInAs: 'senior@sectest.example' })

  test("sees the fleet's changes on /admin live and a company's trail on its page", async ({ page }) => {
    // Each change is a callable and a listener's answer: waits sized for a busy machine.
    const roundTrip = { timeout: 20_000 }
    const companies = new CompaniesPage(page)
    const name = `Audited site ${randomUUID().slice(0, 6)}`
    await companies.shell.open('/analyst/locations')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Country (two letters)').fill('GB')
    await page.getByRole('button', { name: 'Add location' }).click()
    const row = page.getByRole('row').filter({ hasText: name })
    await expect(row).toContainText('0 of 0 online', roundTrip)

    // Renamed and deleted through their dialogs.
    await row.getByRole('button', { name: 'Rename' }).click()
    const rename = page.getByRole('dialog', { name: `Rename ${name}` })
    await rename.getByLabel('New name').fill(`${name} renamed`)
    await rename.getByRole('button', { name: 'Rename' }).click()
    await expect(rename).toBeHidden(roundTrip)
    const renamed = page.getByRole('row').filter({ hasText: `${name} renamed` })
    await renamed.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('dialog', { name: `Delete ${name} renamed?` })
    await confirm.getByRole('button', { name: 'Delete location' }).click()
    // The dialog closes once the deletion is done (leaving earlier would cancel the call).
    await expect(confirm).toBeHidden(roundTrip)
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0, roundTrip)

    await companies.shell.open('/admin')
    const latest = page.getByRole('list', { name: 'Latest changes' })
    await expect(latest.getByRole('listitem').filter({ hasText: `added the location ${name}` })).toHaveCount(1, roundTrip)
    await expect(latest.getByRole('listitem').filter({ hasText: `changed the location ${name} renamed` })).toHaveCount(1)
    await expect(latest.getByRole('listitem').filter({ hasText: `deleted the location ${name} renamed` })).toHaveCount(1)

    // A company the senior analyst is not a member of: its people, its analysts too, a page at a time.
    await companies.shell.open('/admin/company?company=acme')
    const people = page.getByRole('region', { name: 'People' })
    await expect(people.getByText(/^Showing \d+ of \d+ people/)).toBeVisible(roundTrip)
    await expect(people.getByRole('table', { name: 'People' }).getByText('analyst@sectest.example')).toBeVisible()
    await people.getByRole('searchbox', { name: 'Search people' }).fill('viewer@')
    await expect(people.getByText('Showing 1 of 1 person matching this search.')).toBeVisible(roundTrip)

    // And its trail, with the seeded history.
    await page.getByRole('searchbox', { name: 'Filter events' }).fill('olivia.reed@acme.example')
    await expect(companies.auditRows().filter({ hasText: 'Access changed' }).filter({ hasText: 'olivia.reed@acme.example' })).toHaveCount(
      1,
      roundTrip,
    )
  })
})
