import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

// The desktop app in a real window under Xvfb, driven through WebDriver, against the local stack.
export default defineConfig({
  resolve: { alias: domainAlias as [] },
  test: {
    include: ['tests/desktop/**/*.test.ts'],
    globalSetup: ['tests/desktop/stack.ts'],
    testTimeout: 90_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
})
