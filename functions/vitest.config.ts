import { defineConfig } from 'vitest/config'
import { domainAlias } from '../tests/config/domain-alias.ts'

// Unit tests of the functions code; tests that need the emulators live in tests/emulators/ and run
// from the root through `npm run test:emulators`.
export default defineConfig({
  resolve: { alias: domainAlias },
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/*.emulator.test.ts'],
    passWithNoTests: true,
  },
})
