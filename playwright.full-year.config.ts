// The e2e run on the full demo year: the stack seeded as `npm run dev` seeds it (no SEED_REPORTS_SCALE),
// for the reads whose size is the point (the scan comparison, the JSON export of a report's default
// view) and the links, which must land where they say among a year of scans. Everything else is
// the main suite's (playwright.config.ts), on a tenth of the year.
import { defineConfig } from '@playwright/test'
import base from './playwright.config'

const { SEED_REPORTS_SCALE: _tenth, ...env } = process.env
if (!base.webServer || Array.isArray(base.webServer)) throw new Error('playwright.config.ts starts one stack')

export default defineConfig({
  ...base,
  testIgnore: [],
  testMatch: ['full-year.spec.ts', 'links.spec.ts'],
  outputDir: '.local/test-results-full-year',
  webServer: { ...base.webServer, env: env as Record<string, string> },
})
