import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

/**
 * The full demo year (seed-reports.test.ts) leaves about 126,000 documents in the emulator, which
 * slows every write and trigger after it: that file runs last.
 */
class FullSeedLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const last = (file: TestSpecification) => (file.moduleId.endsWith('seed-reports.test.ts') ? 1 : 0)
    return [...sorted].sort((a, b) => last(a) - last(b))
  }
}

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
    sequence: { sequencer: FullSeedLast },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
