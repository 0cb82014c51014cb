import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

/**
 * Files that wipe the emulators or hold background triggers back run after the others: turning
 * triggers on again reloads them, and the first trigger after that waits for a new worker, which
 * on a busy machine takes long enough to make a waiting test give up. The full demo year
 * (seed-reports.test.ts) leaves about 126,000 documents in the emulator, which slows every write
 * and trigger after it: that file runs last of all.
 */
const TRIGGERS_HELD_BACK = ['hot-documents.test.ts', 'seed.test.ts', 'seed-scale.test.ts']
class TriggerPausesLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) =>
      file.moduleId.endsWith('seed-reports.test.ts') ? 2 : TRIGGERS_HELD_BACK.some((name) => file.moduleId.endsWith(`/${name}`)) ? 1 : 0
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}

// Tests against the Firebase emulators; run through `npm run test:emulators`, which starts fresh
// emulators around them (firebase emulators:exec).
// One home, one name: every test that needs the emulators is tests/emulators/<area>.test.ts, whatever
// it tests (rules, callables, triggers, the seed, functions' own Firestore code); helpers beside
// them have no .test suffix. Unit tests elsewhere must not need the emulators.
export default defineConfig({
  // `~/` as the app writes it: some tests run the browser's listener modules against the emulators.
  resolve: { tsconfigPaths: true, alias: domainAlias },
  test: {
    include: ['tests/emulators/*.test.ts'],
    globalSetup: ['tests/emulators/global-setup.ts'],
    // One set of emulators holds the state of every file: files run one after the other.
    fileParallelism: false,
    sequence: { sequencer: TriggerPausesLast },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
