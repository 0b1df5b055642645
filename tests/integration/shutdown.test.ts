// A server stops within its shutdown timeout whatever it has answered: addresses it cannot read (the framework answers
// some of those at once, not with a promise, and such an answer must not stay tracked and keep a stopping server
// waiting for ever), chunked bodies past the limit; on each engine. With several processes, one of them stuck:
// shutdown-postgres.test.ts.
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { closingAllowanceMs } from '../../scripts/shutdown-deadline'
import { signUp } from '../support/app-server'
import { testPorts } from '../support/ports'
import { serverOn, shutdownTimeoutMs, stopWithin } from './shutdown-servers'
import { coreEngines } from './test-databases'

/** Paths whose percent-encoding is not UTF-8, or that hold a NUL in a route parameter, across the route families. */
const unreadablePaths = [
  '/%C0%80',
  '/api/trpc/%C0%80',
  '/en/docs/%C0%80',
  '/api/files/%C0%80',
  '/en/pay/x%ED%A0%80',
  '/api/auth/get-session?x=%00',
  '/en/accept-invitation/a%00b',
  '/en/pay/a%00b',
  '/en/docs?q=%zz',
]

/** Sends `bytes` of body with `Transfer-Encoding: chunked` (no Content-Length), as a streaming client would. */
function postChunked(url: string, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let body = ''
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    sent.on('error', reject)
    const chunk = Buffer.alloc(64 * 1024, 'a')
    let written = 0
    const write = () => {
      while (written < bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, bytes - written))
        written += part.length
        if (!sent.write(part)) return void sent.once('drain', write)
      }
      sent.end()
    }
    write()
  })
}

describe.each(coreEngines)('a server on %s', { timeout: 120_000 }, (engine) => {
  it('answers addresses it cannot read with 400, chunked bodies past 1 MiB with 413, then stops in time', async () => {
    const server = await serverOn(
      engine,
      engine === 'postgres' ? testPorts.shutdownPostgres : testPorts.shutdownEmbedded,
    )
    const cookie = await signUp(server.url, `shutdown-${engine}@example.com`)
    const signedIn = { cookie, origin: server.url }
    for (const unreadable of unreadablePaths) {
      for (const headers of [{}, signedIn]) {
        const response = await fetch(`${server.url}${unreadable}`, { headers, redirect: 'manual' })
        expect(response.status, `GET ${unreadable}`).toBe(400)
        expect(await response.text(), `GET ${unreadable}`).toContain('"code":"INVALID_CHARACTERS"')
      }
    }

    // An upload to a path the server cannot read is refused before routing, as any other request is.
    const upload = await fetch(`${server.url}/api/uploads/a%00b`, {
      method: 'POST',
      headers: { ...signedIn, 'content-type': 'image/png' },
      body: new Uint8Array(16),
    })
    expect(upload.status, 'POST /api/uploads/a%00b').toBe(400)

    // HEAD of the session check answers as GET does, without the body.
    const get = await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })
    const head = await fetch(`${server.url}/api/auth/get-session`, { method: 'HEAD', headers: { cookie } })
    expect([head.status, head.headers.get('content-type')]).toEqual([get.status, get.headers.get('content-type')])
    expect(await head.text()).toBe('')

    // A chunked sign-in past 1 MiB is refused as a declared one is; one under it reaches Better Auth, which cannot read
    // it as JSON.
    const signIn = `${server.url}/api/auth/sign-in/email`
    expect((await postChunked(signIn, 1024 * 1024 + 64 * 1024)).status, 'a chunked sign-in past 1 MiB').toBe(413)
    expect((await postChunked(signIn, 1200 * 1024)).status).toBe(413)
    const small = await postChunked(signIn, 16 * 1024)
    expect([small.status, small.body], 'a small chunked sign-in (not JSON)').toEqual([
      400,
      expect.stringContaining('Invalid JSON'),
    ])

    const { code, ms } = await stopWithin(server, shutdownTimeoutMs + closingAllowanceMs)
    expect(code, server.output().slice(-2000)).toBe(0)
    expect(server.output()).toContain('Stopped.')
    expect(ms, 'ms from SIGTERM to exit').toBeLessThan(shutdownTimeoutMs + closingAllowanceMs)
  })
})
