import { defineConfig } from 'vitest/config'
import { LongestFirstSequencer } from './tests/support/longest-first-sequencer.ts'

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // An app's own tests live in its folder (docs/decisions/042), so they go when it is removed.
    include: [
      'tests/unit/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/fuzz/**/*.test.ts',
      'src/features/*/tests/**/*.test.ts',
    ],
    // Redis and PostgreSQL are optional for the app, so tests that need them run only where REDIS_URL (and, for
    // redis-postgres-*, DATABASE_URL) name servers, as .ci/run's second leg does.
    exclude: [
      // The generator's test copies the project, generates an app and checks it the way CI checks the project: minutes
      // of work. It runs once, on the minimal kit (scripts/minimal-kit.ts), where someone who removed every optional
      // app adds their own; the core it generates against is the same in the full kit.
      ...(process.env.HATCH_KIT === 'minimal' ? [] : ['tests/integration/app-generator.test.ts']),
      // The fuzzers generate their cases from the procedures and routes there are: the minimal kit's are a subset of
      // the full kit's, fuzzed there on both engines, so the kit's run would repeat minutes of the same cases.
      ...(process.env.HATCH_KIT === 'minimal' ? ['tests/fuzz/**'] : []),
      ...(process.env.REDIS_URL ? [] : ['tests/integration/redis-*.test.ts', 'src/features/*/tests/redis-*.test.ts']),
      ...(process.env.DATABASE_URL
        ? []
        : [
            'tests/integration/redis-postgres-*.test.ts',
            'tests/integration/faults-postgres.test.ts',
            'tests/integration/shutdown-postgres.test.ts',
            'tests/integration/traces-postgres.test.ts',
          ]),
    ],
    environment: 'node',
    // The tests keep one cookie string per person, as a script would, not a browser's jar that takes every refreshed
    // cookie: the signed session copy would go stale between their calls. session-cache.test.ts tests the cache.
    env: { SESSION_CACHE_SECONDS: '0' },
    // Integration tests open real databases; a fresh PGlite takes a few seconds to initialise.
    testTimeout: 30_000,
    // Vitest's default on a 2-core machine is one file at a time, and a third of that time was spent waiting (an app
    // server starting, a database, a socket): two files at once use both cores.
    maxWorkers: 2,
    // Child processes, not worker threads, though threads imported a third faster (the unit tests: 19 s, not 28 s):
    // PGlite's WebAssembly, built and freed by many databases at once in one process, sometimes aborts V8 (Check failed:
    // jit_page_->allocations_.erase(addr) == 1; nodejs/node#64500, open). In threads that took the whole run with it,
    // leaving no report of what failed (a CI run of 1083c38, and once here); in a process of its own, the file at most.
    pool: 'forks',
    // Minutes-long files start first, so that none of them runs alone at the end (tests/support/longest-first-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    hookTimeout: 60_000,
  },
})
