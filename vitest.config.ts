import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    // Redis is optional for the app, so its tests run only where REDIS_URL names a server (as .ci/run does).
    exclude: process.env.REDIS_URL ? [] : ['tests/integration/redis-*.test.ts'],
    environment: 'node',
    // Integration tests open real databases; a fresh PGlite takes a few seconds to initialise.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
