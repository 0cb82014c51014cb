import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

// Tests against the Firebase emulators; run through `npm run test:emulators`, which starts fresh
// emulators around them (firebase emulators:exec).
// One home, one name: every test that needs the emulators is tests/emulators/<area>.test.ts, whatever
// it tests (rules, callables, triggers, the seed, functions' own Firestore code); helpers beside
// them have no .test suffix. Unit tests elsewhere must not need the emulators.
export default defineConfig({
  resolve: { alias: domainAlias },
  test: {
    include: ['tests/emulators/*.test.ts'],
    globalSetup: ['tests/emulators/global-setup.ts'],
    // One set of emulators holds the state of every file: files run one after the other.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
