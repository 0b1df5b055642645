// RFC 9110 conditional requests and HEAD, checked against two processes of the built server serving the same content,
// as two servers behind one load balancer do: a cache or browser that revalidates must get its 304 from either.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '#/server/db/client'
import { type AppServer, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'
import { createThrowawayPostgresDatabase } from '../support/postgres-database'

const [firstPort, secondPort] = testPorts.conformanceHttp
/** Both processes write the same public URL into their pages, as servers behind one address do. */
const appUrl = `http://localhost:${firstPort}`
/**
 * Pages kept for everyone, the sitemap and llms.txt (src/server/page-cache.ts), and a file of the client build.
 */
const resources = [
  '/en/',
  '/zh/docs',
  '/en/docs/development/testing',
  '/zh/docs/configuration',
  '/sitemap.xml',
  '/llms.txt',
  '/favicon.svg',
]
const codings = ['br', 'gzip', 'identity'] as const
/** Headers that belong to one answer rather than to the representation. */
const perAnswer = new Set(['date', 'x-request-id', 'x-cache', 'connection', 'keep-alive'])

const folder = mkdtempSync(path.join(tmpdir(), 'hatch-conformance-http-'))
const servers: AppServer[] = []
const cleanups: (() => Promise<unknown> | unknown)[] = []

/**
 * One PostgreSQL database for both processes where a server is at hand; else two embedded databases copied from one,
 * so that what the pages show of the database (the site settings and when they changed) is the same on both.
 */
async function databasesForTwoProcesses(): Promise<[Record<string, string>, Record<string, string>]> {
  const adminUrl = process.env.DATABASE_URL
  if (adminUrl) {
    const database = await createThrowawayPostgresDatabase(adminUrl, 'hatch_conformance_http')
    cleanups.push(() => database.drop())
    return [
      { DATABASE_URL: database.url, DATA_DIR: path.join(folder, 'first') },
      { DATABASE_URL: database.url, DATA_DIR: path.join(folder, 'second') },
    ]
  }
  const first = path.join(folder, 'first')
  const connection = openDatabase({ engine: 'pglite', dataDir: path.join(first, 'pglite') })
  await connection.migrate()
  await connection.close()
  cpSync(first, path.join(folder, 'second'), { recursive: true })
  return [{ DATA_DIR: first }, { DATA_DIR: path.join(folder, 'second') }]
}

beforeAll(async () => {
  const [firstDatabase, secondDatabase] = await databasesForTwoProcesses()
  const shared = { APP_URL: appUrl, BETTER_AUTH_SECRET: 'a-secret-both-processes-share-0123456789' }
  servers.push(
    ...(await Promise.all([
      startAppServer({ port: firstPort, env: { ...shared, ...firstDatabase } }),
      startAppServer({ port: secondPort, env: { ...shared, ...secondDatabase } }),
    ])),
  )
}, 300_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(folder, { recursive: true, force: true })
})

function request(
  server: AppServer | undefined,
  resource: string,
  coding: string,
  init: { method?: string; ifNoneMatch?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'accept-encoding': coding }
  if (init.ifNoneMatch) headers['if-none-match'] = init.ifNoneMatch
  return fetch(`${server?.url}${resource}`, { method: init.method ?? 'GET', headers })
}

async function entityTag(server: AppServer | undefined, resource: string, coding: string): Promise<string> {
  const response = await request(server, resource, coding)
  await response.arrayBuffer()
  expect(response.status, `GET ${resource}`).toBe(200)
  const etag = response.headers.get('etag')
  expect(etag, `an ETag on ${resource} (${coding})`).toMatch(/^"[^"]+"$/)
  return etag ?? ''
}

function representationHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => !perAnswer.has(name)))
}

describe('conditional requests and HEAD (RFC 9110) on two server processes', { timeout: 120_000 }, () => {
  it('gives each representation (brotli, gzip, plain) its own strong ETag', async () => {
    for (const resource of resources) {
      const tags = await Promise.all(codings.map((coding) => entityTag(servers[0], resource, coding)))
      expect(new Set(tags).size, `${resource}: ${codings.join(', ')} are different bodies, so different tags`).toBe(3)
    }
  })

  it('gives the same representation the same ETag on both processes', async () => {
    for (const resource of resources) {
      for (const coding of codings) {
        const [first, second] = await Promise.all(servers.map((server) => entityTag(server, resource, coding)))
        expect(second, `${resource} (${coding}) on the second process`).toBe(first)
      }
    }
  })

  it("answers 304 with no body to a revalidation with either process's ETag, on both processes", async () => {
    for (const resource of resources) {
      for (const coding of codings) {
        const etag = await entityTag(servers[0], resource, coding)
        for (const [index, server] of servers.entries()) {
          for (const ifNoneMatch of [etag, `W/${etag}`, `"not-this-one", ${etag}`]) {
            const answer = await request(server, resource, coding, { ifNoneMatch })
            expect(answer.status, `${resource} (${coding}), If-None-Match: ${ifNoneMatch}, process ${index + 1}`).toBe(
              304,
            )
            expect(answer.headers.get('etag')).toBe(etag)
            expect(await answer.text()).toBe('')
          }
        }
      }
    }
  })

  it("answers 200 to another coding's ETag: the client holds a different body than it would get", async () => {
    for (const resource of resources) {
      const gzipTag = await entityTag(servers[0], resource, 'gzip')
      const answer = await request(servers[1], resource, 'br', { ifNoneMatch: gzipTag })
      expect(answer.status, `${resource}: brotli asked for, the gzip body's ETag sent`).toBe(200)
      expect(answer.headers.get('content-encoding')).toBe('br')
      await answer.arrayBuffer()
    }
  })

  it('answers If-None-Match: * with 304 for GET and HEAD, the representation existing', async () => {
    for (const resource of resources) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await request(servers[1], resource, 'br', { method, ifNoneMatch: '*' })
        expect(answer.status, `${method} ${resource} with If-None-Match: *`).toBe(304)
        await answer.arrayBuffer()
      }
    }
  })

  it('answers a HEAD for a page nobody has asked for yet as the GET it stands for', async () => {
    for (const resource of ['/zh/', '/en/docs/workspace', '/llms-full.txt']) {
      for (const [index, server] of servers.entries()) {
        const head = await request(server, resource, 'br', { method: 'HEAD' })
        expect(head.status, `HEAD ${resource} first, process ${index + 1}`).toBe(200)
        expect(await head.text()).toBe('')
        const get = await request(server, resource, 'br')
        await get.arrayBuffer()
        expect(representationHeaders(head), `HEAD ${resource} before any GET`).toEqual(representationHeaders(get))
      }
    }
  })

  it("sends for HEAD on a page rendered for each visitor GET's headers but the answer's own nonce and length", async () => {
    // Each render carries a fresh script nonce, so the policy and the length belong to one answer; a plain page is
    // streamed (chunked), which is framing, not representation.
    const perRender = (response: Response) => {
      const {
        'content-security-policy': _policy,
        'content-length': _length,
        'transfer-encoding': _framing,
        ...rest
      } = representationHeaders(response)
      return rest
    }
    for (const resource of ['/en/sign-in', '/zh/sign-up']) {
      for (const coding of codings) {
        const get = await request(servers[0], resource, coding)
        await get.arrayBuffer()
        const head = await request(servers[0], resource, coding, { method: 'HEAD' })
        expect(head.status, `HEAD ${resource}`).toBe(200)
        expect(await head.text()).toBe('')
        expect(perRender(head), `HEAD ${resource} (${coding})`).toEqual(perRender(get))
        expect(head.headers.get('content-security-policy'), `HEAD ${resource} names its nonce`).toMatch(/'nonce-/)
      }
    }
  })

  it("sends for HEAD exactly GET's headers (its ETag, caching, encoding, length and policy), and no body", async () => {
    for (const resource of resources) {
      for (const coding of codings) {
        for (const [index, server] of servers.entries()) {
          // The first GET keeps the page, so both answers below come from what is kept.
          await (await request(server, resource, coding)).arrayBuffer()
          const get = await request(server, resource, coding)
          const getHeaders = representationHeaders(get)
          const body = await get.arrayBuffer() // decoded by fetch, so its length is the plain body's
          if (coding === 'identity') expect(Number(getHeaders['content-length'])).toBe(body.byteLength)
          const head = await request(server, resource, coding, { method: 'HEAD' })
          expect(head.status).toBe(200)
          expect(representationHeaders(head), `HEAD ${resource} (${coding}), process ${index + 1}`).toEqual(getHeaders)
          expect(await head.text()).toBe('')
        }
      }
    }
  })
})

describe('kept pages answered from memory, before a Request is built (scripts/serve.ts)', { timeout: 120_000 }, () => {
  const page = '/zh/docs/development/testing'

  it('sends the bytes and headers the full way sent, and logs the answer with its request id', async () => {
    const server = servers[0]
    const first = await request(server, page, 'br')
    const firstBody = await first.arrayBuffer()
    expect(first.headers.get('x-cache'), 'the first visit renders the page').toBe('miss')
    const kept = await request(server, page, 'br')
    expect(kept.headers.get('x-cache')).toBe('hit')
    expect(representationHeaders(kept)).toEqual(representationHeaders(first))
    expect(Buffer.from(await kept.arrayBuffer()).equals(Buffer.from(firstBody))).toBe(true)
    const requestId = kept.headers.get('x-request-id') ?? ''
    expect(requestId).not.toBe(first.headers.get('x-request-id'))
    await expect.poll(() => server?.output() ?? '').toContain(`"requestId":"${requestId}"`)
    const line = (server?.output() ?? '').split('\n').find((entry) => entry.includes(requestId)) ?? ''
    // Answered by the lane itself: the full way would send the same bytes from memory, without this field.
    expect(JSON.parse(line)).toMatchObject({ method: 'GET', path: page, status: 200, msg: 'request', kept: true })
  })

  it('keeps the id a proxy gave the request', async () => {
    const response = await fetch(`${servers[0]?.url}${page}`, { headers: { 'x-request-id': 'proxy-given-id-0001' } })
    expect(response.headers.get('x-cache')).toBe('hit')
    expect(response.headers.get('x-request-id')).toBe('proxy-given-id-0001')
  })

  it('sends a kept page asked for on another host to APP_URL, as the full way does', async () => {
    const response = await fetch(`http://127.0.0.1:${firstPort}${page}`, { redirect: 'manual' })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe(`${appUrl}${page}`)
  })

  it('renders a kept page asked for with a query for that request alone, with its own nonce', async () => {
    const response = await fetch(`${servers[0]?.url}${page}?utm_source=test`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-cache')).toBeNull()
    expect(response.headers.get('content-security-policy')).toMatch(/'nonce-/)
  })
})

describe('connections a proxy keeps open (scripts/serve.ts)', { timeout: 120_000 }, () => {
  it('serves a connection left idle for longer than Node’s default 5 s, and says how long it may stay idle', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const get = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${servers[0]?.url}/api/health`, { agent }, (response) => {
          response.resume()
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              keepAlive: String(response.headers['keep-alive']),
              reused: request.reusedSocket,
            }),
          )
        })
        request.on('error', reject)
      })
    try {
      const first = await get()
      expect(first).toEqual({ status: 200, keepAlive: 'timeout=65', reused: false })
      // Had the server closed it at 5 s, the agent would have dropped the socket and opened another.
      await new Promise((resolve) => setTimeout(resolve, 6_000))
      expect(await get()).toEqual({ status: 200, keepAlive: 'timeout=65', reused: true })
    } finally {
      agent.destroy()
    }
  })
})
