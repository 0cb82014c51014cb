import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { WORKSPACE_MARK_COOKIE } from '../../app/core/workspace-mark'
import { Shell } from './pages/shell'
import { SettingsPage } from './pages/settings'
import { SignInPanel } from './pages/sign-in-panel'
import { ReportsPage } from './pages/reports'
import { TemplatesPage } from './pages/templates'
import { isStale, settledToken, syncedAt, type StoredToken } from './support/settled-sign-in'

interface BrowserConsole {
  /** Accepts console lines matching `pattern` in this test (an expected failed request, say). */
  allow(pattern: RegExp): void
  /** Watches another browser context the test opened (a second device, say). */
  watch(context: BrowserContext): void
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/** Signed-in browser states of demo users, one sign-in per user and worker. */
interface DemoSessions {
  /**
   * The state of a browser `email` signed into by the emailed link (made on first use), settled:
   * its token is not older than the person's last sync, so the test's first page takes no new one.
   */
  stateOf(email: string): Promise<StorageState>
  /** Drops a saved state its sign-in no longer holds for (revoked), so the next use signs in again. */
  forget(email: string): void
}

/**
 * The Firestore SDK's goodbye to a listen channel when the page reloads or its listeners stop: the
 * emulator answers 400 when it has already closed that channel itself. Nothing is lost, and when it
 * happens depends only on timing, so it is no problem of the page.
 */
const isListenChannelGoodbye = (url: string) =>
  url.includes('/google.firestore.v1.Firestore/Listen/channel?') && url.includes('TYPE=terminate')

/** How a Content-Security-Policy violation reads in the console; `allow()` never hides one. */
const CSP_VIOLATION = /Content Security Policy|CSP violation/

/**
 * Every page of `context` reports a Content-Security-Policy violation as a console error, whether
 * or not the browser logs one itself (report-only policies, violations in workers and frames).
 */
function reportCspViolations(context: BrowserContext): Promise<unknown> {
  return context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
}

/** Collects console errors and warnings and uncaught exceptions of every page of a context. */
function consoleProblems(context: BrowserContext): string[] {
  void reportCspViolations(context)
  const problems: string[] = []
  const watchPage = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() !== 'error' && message.type() !== 'warning') return
      if (isListenChannelGoodbye(message.location().url)) return
      problems.push(`${message.type()}: ${message.text()} @ ${message.location().url}`)
    })
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  }
  context.pages().forEach(watchPage)
  context.on('page', watchPage)
  return problems
}

/** A saved sign-in and the token its browser holds. */
interface SavedSignIn {
  state: StorageState
  token: StoredToken
}

/** Saves the state of a signed-in context once its token has settled (see settled-sign-in.ts). */
async function settledState(context: BrowserContext, page: Page, email: string): Promise<SavedSignIn> {
  const token = await settledToken(page)
  if (!token) throw new Error(`${email} is not signed in`)
  return { state: await context.storageState({ indexedDB: true }), token }
}

// The session lives in httpOnly cookies and Firebase Auth keeps its user in IndexedDB: the saved
// state holds both, so a context made from it is signed in on the server and in the browser.
async function signedInState(browser: Browser, baseURL: string | undefined, email: string): Promise<SavedSignIn> {
  // Empty storage said outright: inside a test, new contexts take the test's options, and a test
  // signed in as someone else would hand its session to this one.
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } })
  try {
    const problems = consoleProblems(context)
    const page = await context.newPage()
    await new SignInPanel(page).signIn(email)
    await expect
      .poll(async () => (await context.cookies()).map((c) => c.name))
      .toEqual(expect.arrayContaining(['__Host-session', '__Host-refresh']))
    const saved = await settledState(context, page, email)
    expect(problems, `browser console while signing in ${email}`).toEqual([])
    return saved
  } finally {
    await context.close()
  }
}

/**
 * The saved sign-in, brought up to date when the person's access was synced since it was saved
 * (they signed in again elsewhere, or their access changed): one page of it takes the newer token,
 * so that the test's first page does not, nor restarts its listeners for it.
 */
async function currentState(browser: Browser, baseURL: string | undefined, email: string, saved: SavedSignIn): Promise<SavedSignIn> {
  if (!isStale(saved.token.issuedAt, await syncedAt(saved.token.uid))) return saved
  const context = await browser.newContext({ baseURL, storageState: saved.state })
  try {
    const problems = consoleProblems(context)
    const page = await context.newPage()
    await page.goto('/')
    const renewed = await settledState(context, page, email)
    expect(problems, `browser console while renewing the sign-in of ${email}`).toEqual([])
    return renewed
  } finally {
    await context.close()
  }
}

interface TestFixtures {
  browserConsole: BrowserConsole
  /** A demo user's email: the test's page starts signed in as them (see `demoSessions`). */
  signedInAs: string | null
  shell: Shell
  signInPanel: SignInPanel
  settings: SettingsPage
  templates: TemplatesPage
  reports: ReportsPage
  /** Automatic: the test's browser has a workspace mark of its own (below). */
  freshWorkspaceMark: void
}

interface WorkerFixtures {
  demoSessions: DemoSessions
}

/**
 * Every test fails if a page logged an error or a warning (a hydration mismatch is one) or threw
 * an uncaught exception while it ran, unless the test said it expects that line; a
 * Content-Security-Policy violation fails it whatever the test allows.
 * `test.use({ signedInAs })` gives a test a page already signed in as a demo user; tests about
 * signing in or out use the sign-in panel on a fresh page instead.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  demoSessions: [
    async ({ browser }, use, workerInfo) => {
      const baseURL = workerInfo.project.use.baseURL
      const states = new Map<string, Promise<SavedSignIn>>()
      await use({
        stateOf: (email) => {
          const saved = states.get(email) ?? signedInState(browser, baseURL, email)
          const current = saved.then((signIn) => currentState(browser, baseURL, email, signIn))
          states.set(email, current)
          return current.then((signIn) => signIn.state)
        },
        forget: (email) => states.delete(email),
      })
    },
    { scope: 'worker' },
  ],
  signedInAs: [null, { option: true }],
  // A sign-in of its own time: the suite's first one meets the functions starting cold, which took
  // longer than a test's 30 s on a busy machine.
  storageState: [
    async ({ signedInAs, demoSessions, storageState }, use) => {
      await use(signedInAs ? await demoSessions.stateOf(signedInAs) : storageState)
    },
    { scope: 'test', timeout: 90_000 },
  ],
  browserConsole: [
    async ({ context }, use) => {
      const watched: string[][] = []
      const allowed: RegExp[] = []
      const watch = (other: BrowserContext) => void watched.push(consoleProblems(other))
      watch(context)
      await use({ allow: (pattern) => allowed.push(pattern), watch })
      expect(
        watched.flat().filter((line) => CSP_VIOLATION.test(line) || !allowed.some((pattern) => pattern.test(line))),
        'browser console',
      ).toEqual([])
    },
    { auto: true },
  ],
  // Tests change people's documents with the Admin SDK between page loads of one saved sign-in,
  // behind every page's back. Each test's browser has a mark of its own, so its first page renders
  // what the database holds, not an isolate's copy read for an earlier test (decision 0029).
  freshWorkspaceMark: [
    async ({ context, baseURL }, use) => {
      await context.addCookies([{ name: WORKSPACE_MARK_COOKIE, value: Math.random().toString(36).slice(2, 12), url: baseURL! }])
      await use()
    },
    { auto: true },
  ],
  shell: async ({ page }, use) => use(new Shell(page)),
  signInPanel: async ({ page }, use) => use(new SignInPanel(page)),
  settings: async ({ page }, use) => use(new SettingsPage(page)),
  templates: async ({ page }, use) => use(new TemplatesPage(page)),
  reports: async ({ page }, use) => use(new ReportsPage(page)),
})

export { expect }
