import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // Integration tests open real databases; a fresh PGlite takes a few seconds to initialise.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
