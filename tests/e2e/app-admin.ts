/** The app admin of the end-to-end server: its first account, signed up by tests/e2e/server.ts before the tests run. */
export const appAdmin = { name: 'Ada Operator', email: 'operator@hatch.test', password: 'operator-2026' }
