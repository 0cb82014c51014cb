import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, headlessShellExecutable } from './tests/support/chromium'

const baseURL = `http://127.0.0.1:${process.env.APP_PORT ?? 3000}`

export default defineConfig({
  testDir: 'tests/e2e',
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
    url: `${baseURL}/`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
  },
})
