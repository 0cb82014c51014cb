import { defineConfig } from 'vitest/config'

// The dev launcher end to end: starts and stops the real stack, so one file at a time.
export default defineConfig({
  test: {
    include: ['tests/stack/**/*.test.ts'],
    testTimeout: 240_000,
    fileParallelism: false,
  },
})
