import { connect } from 'node:net'
import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, headlessShellExecutable } from './tests/support/chromium'

const appPort = Number(process.env.APP_PORT ?? 3000)
const baseURL = `http://127.0.0.1:${appPort}`

/** Whether something already answers on the app's port (a developer's running stack). */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.end()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
// Outside CI a running stack is used as it is. A stack started here is waited for until it says it is
// ready: the app answers long before the demo data is loaded and the functions are up, and a test
// run that started at the app's first answer met a seeding database and cold functions.
const reuseRunningStack = !process.env.CI && (await portAnswers(appPort))

export default defineConfig({
  testDir: 'tests/e2e',
  // The full demo year's run (playwright.full-year.config.ts).
  testIgnore: ['full-year.spec.ts'],
  outputDir: '.local/test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: '.local/playwright-report' }]],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: headlessShellExecutable(), args: chromiumArgs },
      },
    },
  ],
  // The whole local stack, serving the production build in workerd.
  webServer: {
    command: 'node --experimental-strip-types scripts/dev.ts --app=preview --quiet',
    // A tenth of the demo year's findings (emulators/seed/reports/universe.ts reportsScale).
    env: { ...process.env, SEED_REPORTS_SCALE: '0.1' },
    ...(reuseRunningStack ? { url: `${baseURL}/`, reuseExistingServer: true } : { wait: { stdout: /^Ready in /m } }),
    timeout: 300_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
  },
})
