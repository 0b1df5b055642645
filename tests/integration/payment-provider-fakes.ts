// A payment provider's fake API for a test file (each provider app's tests/*-for-tests.ts): started before the file's
// tests and closed after, with the provider's variables naming it meanwhile, read once on first use, so set before any
// request.
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

/** The fake, started by the file's beforeAll, with the variables that point the provider's SDK at it. */
export function fakeProviderForTests<Fake extends { url: string; close(): Promise<void> }>(
  start: () => Promise<Fake>,
  variables: (fake: Fake) => Record<string, string>,
): { readonly fake: Fake } {
  let fake: Fake | undefined
  const started = () => {
    if (!fake) throw new Error('the fake provider starts before the tests: read it inside a test or hook')
    return fake
  }
  beforeAll(async () => {
    fake = await start()
  })
  withEnvironment(() => variables(started()))
  afterAll(async () => {
    await fake?.close()
  })
  return {
    get fake() {
      return started()
    },
  }
}
