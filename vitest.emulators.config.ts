import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

// Tests against the Firebase emulators; run through `npm run test:emulators`, which starts fresh
// emulators around them (firebase emulators:exec).
export default defineConfig({
  resolve: { alias: domainAlias },
  test: {
    include: ['tests/emulators/**/*.test.ts', 'functions/src/**/*.emulator.test.ts', 'emulators/**/*.emulator.test.ts'],
    exclude: ['**/node_modules/**', 'functions/lib/**'],
    globalSetup: ['tests/emulators/global-setup.ts'],
    // One set of emulators holds the state of every file: files run one after the other.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
