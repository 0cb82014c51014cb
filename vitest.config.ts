import { defineConfig } from 'vitest/config'
import { domainAlias } from './tests/config/domain-alias.ts'

// Unit tests: pure modules, no emulators and no browser (those have their own configs).
export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    // The Worker's bindings module exists only in workerd; unit tests pass their own variables.
    alias: [
      ...(domainAlias as []),
      { find: 'cloudflare:workers', replacement: new URL('./tests/unit/no-worker-bindings.ts', import.meta.url).pathname },
    ],
  },
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'emulators/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/unit/**/*.test.{ts,tsx}',
      'tests/bench/**/*.test.ts',
      'functions/src/**/*.test.ts',
      'agent/src/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/*.emulator.test.ts'],
    setupFiles: ['tests/config/dom-waits.ts'],
  },
})
