// Vault share links end to end in Chromium: an analyst shares, a recipient in a fresh browser
// opens; previews spend nothing, a link opens as often as it allows, passphrases, revocation and
// expiry say what happened, and the pages carry their strict headers.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { AUDIT_EVENTS_COLLECTION } from '#domain/audit-events.ts'
import { deriveLinkKeys, newVaultId } from '#domain/vault-crypto.ts'
import { filesTokenOf } from '#domain/vault-request-crypto.ts'
import { EVENTS_COLLECTION } from '#domain/events.ts'
import { VAULT_FILE_LIMITS, VAULT_LINKS_COLLECTION, VAULT_SEALED_COLLECTION, vaultLinkPath, vaultSealedPath } from '#domain/vault.ts'
import { VAULT_REQUESTS_COLLECTION, VAULT_TEAM_KEYS_COLLECTION } from '#domain/vault-requests.ts'
import { VAULT_KEYS_COLLECTION, vaultKeyPath } from '#domain/vault-keys.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { FILE_TOKEN_HEADER } from '../../app/server/vault-files.server'
import { sweepVault } from '../../functions/src/vault/vault-sweep.ts'
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'
import { RequestLinkPage, RevealPage, ShareLinkPage } from './pages/vault'

const ANALYST = 'analyst@sectest.example'
/** Another analyst with access to Acme (senior analysts see every company). */
const COLLEAGUE = { email: 'senior@sectest.example', uid: 'demo-senior-analyst', name: 'Sam Senior' }

const idOf = (url: string) => new URL(url).pathname.split('/').at(-1)!

/** The status of a stored chunk, asked for with the files' token. */
const chunkStatus = async (request: APIRequestContext, path: string, token: string) =>
  (await request.get(path, { headers: { [FILE_TOKEN_HEADER]: token } })).status()

/** Every secret, passphrase and link key of this file: none may be found in a stored vault document. */
const used: string[] = []
const remember = (url: string, ...secrets: string[]) => used.push(new URL(url).hash.slice(1), ...secrets)

test.afterAll(async () => {
  const db = sharedAdmin().db
  const documents = [
    ...(await db.collection(VAULT_LINKS_COLLECTION).get()).docs,
    ...(await db.collectionGroup(VAULT_SEALED_COLLECTION).get()).docs,
    ...(await db.collection(VAULT_REQUESTS_COLLECTION).get()).docs,
    ...(await db.collectionGroup(VAULT_TEAM_KEYS_COLLECTION).get()).docs,
    ...(await db.collection(VAULT_KEYS_COLLECTION).get()).docs,
    ...(await db.collection(EVENTS_COLLECTION).where('type', '>=', 'vault_').where('type', '<', 'vault`').get()).docs,
    ...(await db.collection(AUDIT_EVENTS_COLLECTION).where('targetKind', 'in', ['vault_link', 'vault_request']).get()).docs,
  ]
  expect(documents.length).toBeGreaterThan(0)
  const stored = documents.map((d) => JSON.stringify(d.data())).join('\n')
  for (const secret of used) expect(stored, 'a stored vault document').not.toContain(secret)
})

test.describe('vault share links', () => {
  test.use({ signedInAs: ANALYST })

  test('a link opens once in a fresh browser, after a preview fetch that spends nothing; a second open is refused', async ({
    page,
    browser,
    browserConsole,
  }) => {
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `VPN ${randomUUID().slice(0, 6)}`
    const secret = `vpn-password-${randomUUID()}`
    const url = await analyst.share({ secret, label })
    remember(url, secret)
    await expect(analyst.status(label)).toHaveText('Waiting')

    // A chat or mail preview fetches the page without running it or clicking.
    const preview = await page.request.get(url, { headers: { 'User-Agent': 'Slackbot-LinkExpanding 1.0' } })
    expect(preview.status()).toBe(200)
    const headers = preview.headers()
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    expect(headers['content-security-policy']).toContain("default-src 'none'")
    expect(headers['content-security-policy']).not.toMatch(/https:\/\/(?!identitytoolkit|securetoken|us-central1-)/)
    expect(headers['referrer-policy']).toBe('no-referrer')
    expect(headers['cache-control']).toBe('no-store')
    expect(headers['x-robots-tag']).toContain('noindex')
    const html = await preview.text()
    expect(html).not.toContain(secret)
    const nonce = /'nonce-([^']+)'/.exec(headers['content-security-policy']!)![1]
    const inline = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !/\bsrc=/.test(tag))
    expect(inline.length).toBeGreaterThan(0)
    // The colour-scheme script is allowed by its hash; every other inline script by the nonce.
    expect(inline.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toHaveLength(1)

    // A recipient in another browser: the page says what it is before anything is spent.
    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(url)
    await expect(reveal.page.getByRole('heading', { name: label })).toBeVisible()
    await expect(reveal.page.getByText('Sent by')).toContainText('Acme')
    await expect(reveal.revealButton()).toBeVisible()
    await expect(analyst.status(label)).toHaveText('Waiting')
    expect(reveal.page.url()).toContain('#')

    await reveal.revealButton().click()
    await expect(reveal.secret()).toHaveValue(secret)
    expect(reveal.page.url()).not.toContain('#')
    await expect(reveal.page.getByText('This link is now used')).toBeVisible()
    // The analyst sees it, live.
    await expect(analyst.status(label)).toHaveText('Opened, no views left')
    await expect(analyst.row(label)).toContainText(/Opened .* from .*, Chrome/)

    const second = new RevealPage(await recipient.newPage())
    await second.open(url)
    await expect(second.alert()).toContainText('already been opened')
    await recipient.close()
  })

  test('a passphrase link: a wrong passphrase is refused and counted, the right one opens it', async ({
    page,
    browser,
    browserConsole,
  }) => {
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `DB ${randomUUID().slice(0, 6)}`
    const url = await analyst.share({ secret: 'db-root: s3cr3t', label, passphrase: 'orange piano', views: 2 })
    remember(url, 'db-root: s3cr3t', 'orange piano')

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(url)
    await expect(reveal.page.getByText('It can be opened 2 more times.')).toBeVisible()
    await reveal.page.getByLabel('Passphrase').fill('apple piano')
    await reveal.revealButton().click()
    await expect(reveal.alert()).toHaveText('Wrong passphrase. 4 tries left.', { timeout: 15_000 })
    await expect(analyst.row(label)).toContainText('1 wrong passphrase')
    await reveal.page.getByLabel('Passphrase').fill('orange piano')
    await reveal.revealButton().click()
    await expect(reveal.secret()).toHaveValue('db-root: s3cr3t', { timeout: 15_000 })
    await expect(reveal.page.getByText('This link can be opened 1 more time.')).toBeVisible()
    await expect(analyst.status(label)).toHaveText('Opened')
    await recipient.close()
  })

  test('a recipient-email link opens only for that address, signed in; others spend nothing', async ({
    page,
    browser,
    browserConsole,
    demoSessions,
  }) => {
    // Two more people sign in (the first time in a run, each takes seconds).
    test.setTimeout(60_000)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `For the manager ${randomUUID().slice(0, 6)}`
    const secret = `manager-only-${randomUUID()}`
    const url = await analyst.share({ secret, label, recipient: 'manager@acme.example' })
    remember(url, secret)

    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(visitor)
    const signedOut = new RevealPage(await visitor.newPage())
    await signedOut.open(url)
    await expect(signedOut.page.getByText('Only manager@acme.example, signed in, can open it.')).toBeVisible()
    await signedOut.revealButton().click()
    await expect(signedOut.alert()).toContainText('sign in with that address')
    await visitor.close()

    const viewer = await browser.newContext({ storageState: await demoSessions.stateOf('viewer@acme.example') })
    browserConsole.watch(viewer)
    const wrong = new RevealPage(await viewer.newPage())
    await wrong.open(url)
    await wrong.revealButton().click()
    await expect(wrong.alert()).toContainText('This link is for another recipient')
    await viewer.close()
    await expect(analyst.status(label)).toHaveText('Waiting')

    const manager = await browser.newContext({ storageState: await demoSessions.stateOf('manager@acme.example') })
    browserConsole.watch(manager)
    const right = new RevealPage(await manager.newPage())
    await right.open(url)
    await right.revealButton().click()
    await expect(right.secret()).toHaveValue(secret)
    await expect(analyst.status(label)).toHaveText('Opened, no views left')
    await manager.close()
  })

  test('a revoked link and an expired link say so and whom to ask', async ({ page, browser, browserConsole }) => {
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const revokedLabel = `Revoked ${randomUUID().slice(0, 6)}`
    const expiredLabel = `Expired ${randomUUID().slice(0, 6)}`
    const revoked = await analyst.share({ secret: 'never to be seen', label: revokedLabel })
    const expired = await analyst.share({ secret: 'too late', label: expiredLabel, expiry: '1 hour' })
    remember(revoked, 'never to be seen')
    remember(expired, 'too late')

    await analyst.row(revokedLabel).getByRole('button', { name: 'Revoke' }).click()
    await expect(analyst.status(revokedLabel)).toHaveText('Burned')
    await expect(analyst.row(revokedLabel).getByRole('button', { name: 'Revoke' })).toHaveCount(0)

    // Time passes: the link's expiry is now behind it.
    const past = new Date(Date.now() - 60_000)
    await sharedAdmin()
      .db.doc(vaultLinkPath(idOf(expired)))
      .update({ expiresAt: past })
    await sharedAdmin()
      .db.doc(vaultSealedPath(idOf(expired)))
      .update({ expiresAt: past })
    await page.reload()
    await expect(analyst.status(expiredLabel)).toHaveText('Expired')

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(revoked)
    await expect(reveal.alert()).toHaveText(/^This link was revoked\. Ask .+ for a new link\.$/)
    await reveal.open(expired)
    await expect(reveal.alert()).toHaveText(/^This link has expired\. Ask .+ for a new link\.$/)
    // A link cut short says so too.
    await reveal.open(revoked.split('#')[0]!)
    await expect(reveal.page.getByRole('heading', { name: 'This link is not complete' })).toBeVisible()
    await recipient.close()
  })
})

test.describe('vault share-link files', () => {
  test.use({ signedInAs: ANALYST })

  test('a 10 MB file goes up sealed, comes down whole in a fresh browser, and is gone from the store after the last view', async ({
    page,
    browser,
    browserConsole,
  }) => {
    test.setTimeout(120_000)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `Archive ${randomUUID().slice(0, 6)}`
    const content = randomBytes(10 * 1024 * 1024)
    const url = await analyst.share({
      secret: 'The archive password is in the file name.',
      label,
      files: [{ name: '../../report <final>.zip', mimeType: 'application/zip', buffer: content }],
    })
    await expect(analyst.row(label)).toContainText('1 file')
    remember(url, 'The archive password is in the file name.', 'report <final>.zip')

    // What the store holds is ciphertext, and only for the link's file token.
    const id = idOf(url)
    const { fileToken } = await deriveLinkKeys(id, new URL(url).hash.slice(1))
    const chunkUrl = `/api/vault/files/${id}/0/0`
    const stored = await page.request.get(chunkUrl, { headers: { [FILE_TOKEN_HEADER]: fileToken } })
    expect(stored.status()).toBe(200)
    const sealed = await stored.body()
    expect(sealed.length).toBe(1024 * 1024 + 28)
    expect(sealed.includes(content.subarray(0, 64))).toBe(false)
    expect((await page.request.get(chunkUrl)).status()).toBe(404)

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(url)
    await expect(reveal.page.getByText('It holds a file.')).toBeVisible()
    await reveal.revealButton().click()
    const link = reveal.page.getByRole('list', { name: 'Files' }).getByRole('link')
    await expect(link).toHaveText('report _final_.zip', { timeout: 60_000 })
    const download = reveal.page.waitForEvent('download')
    await link.click()
    const file = await download
    expect(file.suggestedFilename()).toBe('report _final_.zip')
    const body = await readFile((await file.path())!)
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'))

    // The last view took the chunks out of the store.
    await expect.poll(async () => (await page.request.get(chunkUrl, { headers: { [FILE_TOKEN_HEADER]: fileToken } })).status()).toBe(404)
    await recipient.close()
  })
})

test.describe('vault file store limits and clean-up', () => {
  test.use({ signedInAs: ANALYST })

  test('thirty chunks uploaded at once to one link keep it within 25 MB', async ({ page }) => {
    test.setTimeout(120_000)
    const id = newVaultId()
    const token = randomBytes(32).toString('base64url')
    const chunk = randomBytes(1024 * 1024 + 28)
    const paths = Array.from({ length: 30 }, (_, i) => `/api/vault/files/${id}/${Math.floor(i / 20)}/${i % 20}`)
    const answers = await Promise.all(
      paths.map((path) =>
        page.request.put(path, { headers: { [FILE_TOKEN_HEADER]: token, 'content-type': 'application/octet-stream' }, data: chunk }),
      ),
    )
    const statuses = answers.map((a) => a.status())
    expect(statuses.filter((s) => s !== 201 && s !== 413)).toEqual([])
    // What the store holds, chunk by chunk: never more than the link's 25 MB.
    const held = (await Promise.all(paths.map((path) => chunkStatus(page.request, path, token)))).filter((s) => s === 200).length
    expect(held).toBe(statuses.filter((s) => s === 201).length)
    expect(held * 1024 * 1024).toBeLessThanOrEqual(VAULT_FILE_LIMITS.totalBytes)
    expect(held).toBe(25)
    expect((await page.request.delete(`/api/vault/files/${id}`, { headers: { [FILE_TOKEN_HEADER]: token } })).status()).toBe(200)
  })

  test('the files of a link burned by five wrong passphrases leave the store, with no browser to delete them', async ({
    page,
    browser,
    browserConsole,
  }) => {
    test.setTimeout(120_000)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `Burned files ${randomUUID().slice(0, 6)}`
    const url = await analyst.share({
      secret: 'The key file is attached.',
      label,
      passphrase: 'seven lemons',
      files: [{ name: 'id_rsa', mimeType: 'application/octet-stream', buffer: randomBytes(64 * 1024) }],
    })
    remember(url, 'The key file is attached.', 'seven lemons')
    const id = idOf(url)
    const sealed = (await sharedAdmin().db.doc(vaultSealedPath(id)).get()).data() as { kdf: { salt: string; iterations: number } }
    const { fileToken } = await deriveLinkKeys(id, new URL(url).hash.slice(1), { text: 'seven lemons', kdf: sealed.kdf })
    const chunkUrl = `/api/vault/files/${id}/0/0`
    expect(await chunkStatus(page.request, chunkUrl, fileToken)).toBe(200)

    const recipient = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(recipient)
    const reveal = new RevealPage(await recipient.newPage())
    await reveal.open(url)
    for (const left of [4, 3, 2, 1, 0]) {
      await reveal.page.getByLabel('Passphrase').fill(`guess ${left}`)
      await reveal.revealButton().click()
      await expect(reveal.alert()).toHaveText(
        left > 0 ? `Wrong passphrase. ${left} ${left === 1 ? 'try' : 'tries'} left.` : /^Wrong passphrase: the link is now revoked\./,
        { timeout: 15_000 },
      )
    }
    await recipient.close()
    await expect(analyst.status(label)).toHaveText('Burned')
    await expect.poll(() => chunkStatus(page.request, chunkUrl, fileToken), { timeout: 30_000 }).toBe(404)
  })

  test("a swept link's files leave the store; asking for it before changes nothing", async ({ page, playwright, baseURL }) => {
    test.setTimeout(120_000)
    const analyst = new ShareLinkPage(page)
    await analyst.open()
    const label = `Swept files ${randomUUID().slice(0, 6)}`
    const url = await analyst.share({
      secret: 'Nobody opened this one.',
      label,
      files: [{ name: 'notes.txt', mimeType: 'text/plain', buffer: randomBytes(32 * 1024) }],
    })
    remember(url, 'Nobody opened this one.')
    const id = idOf(url)
    const { fileToken } = await deriveLinkKeys(id, new URL(url).hash.slice(1))
    const chunkUrl = `/api/vault/files/${id}/0/0`
    // Anyone may ask the store to look at a link's files: while the link is live, nothing goes.
    const anyone = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
    expect((await anyone.delete(`/api/vault/files/${id}`)).status()).toBe(409)
    await anyone.dispose()
    expect(await chunkStatus(page.request, chunkUrl, fileToken)).toBe(200)

    // Its keeping time is over: the sweep takes the record, and the store its files.
    const past = new Date(Date.now() - 60_000)
    await sharedAdmin().db.doc(vaultLinkPath(id)).update({ purgeAt: past })
    await sweepVault(sharedAdmin().db, Date.now())
    expect((await sharedAdmin().db.doc(vaultLinkPath(id)).get()).exists).toBe(false)
    await expect.poll(() => chunkStatus(page.request, chunkUrl, fileToken), { timeout: 30_000 }).toBe(404)
  })
})

test.describe('vault request links', () => {
  test.use({ signedInAs: ANALYST })

  test('a signed-out client answers; the analyst sees it arrive live and opens it with the vault passphrase', async ({
    page,
    browser,
    browserConsole,
  }) => {
    const analyst = new RequestLinkPage(page)
    await analyst.open()
    const label = `VPN credentials ${randomUUID().slice(0, 6)}`
    const url = await analyst.ask(label, 'my vault passphrase')
    await expect(analyst.row(label).locator('[data-status]')).toHaveText('Waiting')

    const client = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(client)
    const answerPage = await client.newPage()
    const headers = (await answerPage.goto(url))!.headers()
    expect(headers['referrer-policy']).toBe('no-referrer')
    await expect(answerPage.getByRole('heading', { name: /asks you for a secret$/ })).toBeVisible()
    await expect(answerPage.getByText(label)).toBeVisible()
    const secret = `vpn: acme-pentest / ${randomUUID()}`
    remember(url, secret, 'my vault passphrase', ...new URL(url).hash.slice(1).split('.'))
    await answerPage.getByLabel('Your answer').fill(secret)
    await answerPage.getByRole('button', { name: 'Send securely' }).click()
    await expect(answerPage.getByRole('status')).toContainText('only')
    expect(answerPage.url()).not.toContain('#')

    // The answer arrives on the analyst's page without a reload.
    await expect(analyst.row(label).locator('[data-status]')).toHaveText('Answered')
    await analyst.reveal(label, 'not my passphrase')
    await expect(analyst.row(label).getByRole('alert')).toHaveText('Wrong vault passphrase')
    await analyst.reveal(label, 'my vault passphrase')
    await expect(analyst.row(label).getByRole('textbox', { name: `Answer to ${label}` })).toHaveValue(secret, { timeout: 15_000 })

    // The link takes one answer.
    const again = await client.newPage()
    await again.goto(url)
    await expect(again.getByRole('alert')).toHaveText('This request has already been answered. Nothing more is needed.')
    await client.close()
  })

  test('a signed-out client answers with a file, sealed in their browser; the analyst downloads it whole, and its deletion takes the file', async ({
    page,
    browser,
    browserConsole,
  }) => {
    test.setTimeout(120_000)
    const analyst = new RequestLinkPage(page)
    await analyst.open()
    const label = `Config export ${randomUUID().slice(0, 6)}`
    const url = await analyst.ask(label, 'my vault passphrase')
    const id = idOf(url)
    const content = randomBytes(3 * 1024 * 1024 + 17)

    const client = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(client)
    const answerPage = await client.newPage()
    await answerPage.goto(url)
    await answerPage
      .getByLabel('Files (optional)')
      .setInputFiles([{ name: 'firewall <export>.cfg', mimeType: 'text/plain', buffer: content }])
    await answerPage.getByRole('button', { name: 'Send securely' }).click()
    await expect(answerPage.getByRole('status')).toContainText('only')
    remember(url, 'my vault passphrase', ...new URL(url).hash.slice(1).split('.'))

    // The store holds ciphertext, for the link's files token only; the gate is shut after the answer.
    const filesToken = await filesTokenOf(id, new URL(url).hash.slice(1).split('.')[1]!)
    const chunkUrl = `/api/vault/request-files/${id}/0/0`
    const stored = await page.request.get(chunkUrl, { headers: { [FILE_TOKEN_HEADER]: filesToken } })
    expect(stored.status()).toBe(200)
    expect((await stored.body()).includes(content.subarray(0, 64))).toBe(false)
    expect((await page.request.get(chunkUrl)).status()).toBe(404)
    const late = await page.request.put(`/api/vault/request-files/${id}/1/0`, {
      headers: { [FILE_TOKEN_HEADER]: filesToken, 'content-type': 'application/octet-stream' },
      data: randomBytes(100),
    })
    expect(late.status()).toBe(409)

    await expect(analyst.row(label).locator('[data-status]')).toHaveText('Answered')
    await analyst.reveal(label, 'my vault passphrase')
    const link = analyst.row(label).getByRole('list', { name: 'Files' }).getByRole('link')
    await expect(link).toHaveText('firewall _export_.cfg', { timeout: 60_000 })
    const download = page.waitForEvent('download')
    await link.click()
    const body = await readFile((await (await download).path())!)
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'))
    await client.close()

    // Deleting the answer takes its files out of the store.
    await analyst.row(label).getByRole('button', { name: 'Delete the answer' }).click()
    await expect(analyst.row(label).locator('[data-status]')).toHaveText('Withdrawn')
    await expect.poll(() => chunkStatus(page.request, chunkUrl, filesToken), { timeout: 30_000 }).toBe(404)
  })
})

test.describe('vault request links shared with the engagement', () => {
  test.use({ signedInAs: ANALYST })

  test("a signed-out client answers a request shared with Acme's analysts; a colleague reveals it with their own vault passphrase", async ({
    page,
    browser,
    browserConsole,
    baseURL,
    demoSessions,
  }) => {
    test.setTimeout(90_000)
    // The colleague starts without a vault key and sets one up on their own request page.
    await sharedAdmin().db.doc(vaultKeyPath(COLLEAGUE.uid)).delete()
    const colleagueContext = await browser.newContext({ baseURL, storageState: await demoSessions.stateOf(COLLEAGUE.email) })
    browserConsole.watch(colleagueContext)
    const colleague = new RequestLinkPage(await colleagueContext.newPage())
    await colleague.open()
    await colleague.setUpVaultKey('colleague vault passphrase')

    const analyst = new RequestLinkPage(page)
    await analyst.open()
    const label = `Domain admin ${randomUUID().slice(0, 6)}`
    const { url, shared } = await analyst.askFor(label, 'my vault passphrase', { team: true })
    expect(shared).toContain(COLLEAGUE.name)
    await expect(analyst.row(label)).toContainText('The engagement’s analysts can open it too')

    const client = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    browserConsole.watch(client)
    const answerPage = await client.newPage()
    await answerPage.goto(url)
    const secret = `domain admin: acme-pentest / ${randomUUID()}`
    remember(url, secret, 'my vault passphrase', 'colleague vault passphrase', ...new URL(url).hash.slice(1).split('.'))
    await answerPage.getByLabel('Your answer').fill(secret)
    await answerPage.getByRole('button', { name: 'Send securely' }).click()
    await expect(answerPage.getByRole('status')).toContainText('only')
    await client.close()

    // The colleague sees it among the requests shared with them, live, and opens it with their own passphrase.
    const shown = colleague.page.getByRole('region', { name: 'Shared with you for Acme' })
    await expect(shown.getByRole('listitem', { name: label }).locator('[data-status]')).toHaveText('Answered')
    await expect(colleague.row(label)).toContainText('asked by Ana Analyst')
    await expect(colleague.row(label).getByRole('button', { name: /Withdraw|Delete the answer/ })).toHaveCount(0)
    await colleague.reveal(label, 'my vault passphrase')
    await expect(colleague.row(label).getByRole('alert')).toHaveText('Wrong vault passphrase')
    await colleague.reveal(label, 'colleague vault passphrase')
    await expect(colleague.row(label).getByRole('textbox', { name: `Answer to ${label}` })).toHaveValue(secret, { timeout: 15_000 })

    // The opening is in the company's audit trail, by the colleague.
    const id = idOf(url)
    const trail = await sharedAdmin().db.collection(AUDIT_EVENTS_COLLECTION).where('targetId', '==', id).get()
    expect(trail.docs.map((d) => d.data()).filter((e) => e.action === 'vault_request.opened')).toEqual([
      expect.objectContaining({ actorUid: COLLEAGUE.uid, actorEmail: COLLEAGUE.email, companyId: 'acme' }),
    ])
    await colleagueContext.close()
  })
})
