// /api/search (the docs' search box) with hostile requests. Its index is built from the compiled docs, which exist
// only in a build, so this target calls the production server (`npm test` builds first) rather than a handler: the
// answers are what a client sees, with everything the entry adds in front.
import { mkdtempSync, rmSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServer, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { hostileText } from './arbitraries'
import { assertSafeAnswer, fuzz, fuzzTimeout, observe } from './fuzz-support'

/** Percent-encoding that also takes lone surrogates (a client would send U+FFFD). */
const encoded = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd'))

const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-fuzz-search-'))
let server: AppServer | undefined

beforeAll(async () => {
  server = await startAppServer({ port: testPorts.docsSearchFuzz, env: { DATA_DIR: dataDir } })
}, 180_000)
afterAll(async () => {
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('fuzzing GET /api/search', () => {
  it('finds a page for a plain query, in each language', async () => {
    for (const [locale, query] of [
      ['en', 'organizations'],
      ['zh', '组织'],
    ] as const) {
      const response = await fetch(`${server?.url}/api/search?query=${encoded(query)}&locale=${locale}`)
      expect(response.status).toBe(200)
      const results = (await response.json()) as { url: string; content: string }[]
      expect(results.length, `results for “${query}”`).toBeGreaterThan(0)
      expect(results.map((result) => result.url)).toEqual(results.map(() => expect.stringMatching(/^\/docs(\/|#|$)/)))
      // Pages whose text names the word rank beside the page titled with it; one of the first few says it.
      expect(
        results.slice(0, 5).map((result) => result.content.toLowerCase()),
        'the pages of that language',
      ).toContainEqual(expect.stringContaining(query))
    }
  })

  it(
    'never answers a 5xx or shows anything internal, whatever the query',
    async () => {
      // Each text at most 1,000 characters: an address past Node's 16 KB header limit is answered 431 before any
      // route runs (checked on its own below), and fetch reports the early answer as a failed request.
      const short = hostileText.map((text) => text.slice(0, 1000))
      const parameter = fc.oneof(
        fc.constantFrom('query', 'locale', 'tag', 'mode', '__proto__', 'constructor'),
        short.map(encoded),
      )
      const cases = fc.record({
        method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
        params: fc.array(fc.tuple(parameter, short), { maxLength: 4 }),
        query: fc.oneof(short, fc.constantFrom('organisation', '组织', 'sign in', 'a'.repeat(4096))),
        locale: fc.oneof(fc.constantFrom('en', 'zh', undefined), short),
      })
      await fuzz(
        'GET /api/search',
        fc.asyncProperty(cases, async ({ method, params, query, locale }) => {
          const search = [
            `query=${encoded(query)}`,
            ...(locale === undefined ? [] : [`locale=${encoded(locale)}`]),
            ...params.map(([key, value]) => `${key}=${encoded(value)}`),
          ].join('&')
          const answer = await observe(
            await fetch(`${server?.url}/api/search?${search}`, {
              method,
              signal: AbortSignal.timeout(15_000),
            }),
          )
          assertSafeAnswer('GET /api/search', answer, { method, search })
        }),
      )
      expect(server?.process.exitCode, 'the server is still running').toBeNull()
    },
    fuzzTimeout(),
  )

  it('refuses an address longer than the server takes with 431, before any route runs', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = get(`${server?.url}/api/search?query=${'a'.repeat(100_000)}`, (response) => {
        response.resume()
        resolve(response.statusCode)
      })
      request.on('error', reject)
    })
    expect(status).toBe(431)
  })
})
