import path from 'node:path'

const resultsDir = path.resolve(import.meta.dirname, '../../test-results')

/** Everything the end-to-end app server printed (tests/e2e/server.ts), read by tests/e2e/last/server-log.spec.ts. */
export const serverLogFile = path.join(resultsDir, 'e2e-server.log')

/**
 * The secrets the end-to-end server was started with (its auth secret, the OAuth client secret, a database
 * password), so the log check can look for them by value. Written by tests/e2e/server.ts; test output only.
 */
export const serverSecretsFile = path.join(resultsDir, 'e2e-server-secrets.json')
