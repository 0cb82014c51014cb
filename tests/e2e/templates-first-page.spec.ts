// The templates list shows its first results from the server's HTML: before the app's code runs
// (and without it), and without the browser asking for a search key on the way.
import { demoAccount } from '../../emulators/seed/demo-accounts'
import { expect, test } from './fixtures'

const senior = demoAccount('senior@sectest.example')

test.describe('without JavaScript', () => {
  test.use({ signedInAs: senior.email, javaScriptEnabled: false })

  test('the list, its count and its filters are in the server HTML', async ({ page, templates }) => {
    await templates.goto('?severity=critical&sort=title')
    await expect(templates.count).toHaveText(/^\d[\d,]* templates$/)
    const rows = templates.results.getByRole('listitem')
    await expect(rows.first()).toBeVisible()
    expect(await rows.count()).toBeGreaterThan(1)
    // The filter and the order were applied at the edge: every row critical, titles in order.
    for (const row of await rows.all()) await expect(row).toContainText('Critical')
    const titles = await rows.getByRole('link').allTextContents()
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
    await expect(page.getByRole('group', { name: 'Severity' }).getByRole('checkbox', { name: /^Critical/ })).toBeChecked()
    await expect(rows.first().getByRole('link')).toHaveAttribute('href', /^\/templates\/finding\?template=/)
  })
})

test.describe('with JavaScript', () => {
  test.use({ signedInAs: senior.email })

  test('the first page needs no search key from the browser, and the next search reuses the one it came with', async ({
    page,
    shell,
    templates,
  }) => {
    const keyRequests: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/getSearchClient')) keyRequests.push(request.url())
    })
    await page.goto('/')
    // A fresh tab: no key kept from an earlier visit.
    await page.evaluate(() => sessionStorage.clear())
    await shell.open('/templates/finding')
    await expect(templates.count).toHaveText(/^\d{3,}[\d,]* templates$/)
    await templates.searchBox.fill('smb signing')
    await expect(templates.resultLink('SMB signing not required')).toBeVisible()
    expect(keyRequests).toEqual([])
  })
})
