// The kit smoke test's own configuration, outside the end-to-end run (playwright.config.ts finds specs in tests/e2e
// and the apps' folders only). scripts/minimal-kit.ts starts the server first, to time its start and read its
// memory; run on its own, this starts the same end-to-end server (tests/e2e/server.ts) on the same ports.
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.ts'
import { kitServerEnv } from '../../scripts/minimal-kit/kit-server.ts'
import { testPorts } from '../support/ports.ts'

const projectDir = path.resolve(import.meta.dirname, '../..')

export default defineConfig({
  testDir: '.',
  testMatch: 'smoke.spec.ts',
  outputDir: process.env.MINIMAL_KIT_OUTPUT || path.join(projectDir, 'test-results/minimal-kit'),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${testPorts.minimalKitServer}`,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `${JSON.stringify(process.execPath)} tests/e2e/server.ts`,
    cwd: projectDir,
    url: `http://localhost:${testPorts.minimalKitServer}/e2e-ready.txt`,
    env: kitServerEnv,
    reuseExistingServer: true,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
})
