// A payment provider's fake API for a test file (each provider app's tests/*-for-tests.ts): its variables set for the
// file's tests, read once on first use, so set before any request.
import { afterAll, beforeAll } from 'vitest'

/** Sets the variables for the file's tests and removes them after. */
export function withEnvironment(variables: () => Record<string, string>) {
  let names: string[] = []
  beforeAll(() => {
    const values = variables()
    names = Object.keys(values)
    Object.assign(process.env, values)
  })
  afterAll(() => {
    for (const name of names) delete process.env[name]
  })
}

/** The fake, once the file's beforeAll started it. */
export function started<T>(fake: T | undefined): T {
  if (!fake) throw new Error('the fake provider starts before the tests: read it inside a test or hook')
  return fake
}
