import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from './scripts/chromium.ts'

const port = Number(process.env.E2E_PORT ?? 3211)

/** The core's specs and each app's own, which go when the app is removed (docs/decisions/042). */
const specs = /\/(tests|src\/features\/[^/]+\/tests)\/e2e\/.*\.spec\.ts$/

export default defineConfig({
  testDir: '.',
  // Not data/, dist/ or node_modules/: the specs are found in tests/e2e and src/features/*/tests/e2e.
  respectGitIgnore: true,
  testMatch: specs,
  outputDir: 'test-results/e2e',
  // Whole stories (sign up, act, reload, check) on a 2-core machine running two browsers and the server: each step
  // still fails after its own 10 s, this only bounds a story's total.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  forbidOnly: true,
  // A test that fails runs once more, recording its trace (test-results/e2e) the second time: recording every test's
  // trace for the few that fail took a fifth of the step's time. One that passes only on its second run still fails
  // the run, named as flaky in npm test's summary.
  retries: 1,
  failOnFlakyTests: true,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'on-first-retry',
  },
  projects: [
    { name: 'app', testIgnore: /\/e2e\/last\// },
    // Tests that change what every other test relies on (closing sign-up): they run once the rest have finished.
    { name: 'last', testMatch: /\/e2e\/last\/.*\.spec\.ts$/, dependencies: ['app'] },
  ],
  webServer: {
    // The built production server on a database of its own; see tests/e2e/server.ts.
    command: `${JSON.stringify(process.execPath)} tests/e2e/server.ts`,
    // Written by the server script once the app admin exists, so no test can sign up before it.
    url: `http://localhost:${port}/e2e-ready.txt`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
})
