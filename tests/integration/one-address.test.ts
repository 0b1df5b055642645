// The built production server keeps every visitor on APP_URL's host (src/server/one-address.ts), while monitors
// reach health and metrics on whatever address they have, and a trusted proxy's X-Forwarded-Host counts as the host.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppServer, startAppServer } from '../support/app-server'
import { testPorts } from '../support/ports'

const port = testPorts.oneAddress
const appUrl = `http://localhost:${port}`
const otherAddress = `http://127.0.0.1:${port}`

describe('one address for the production server', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hatch-one-address-'))
  let server: AppServer

  beforeAll(async () => {
    server = await startAppServer({
      port,
      env: { APP_URL: appUrl, DATA_DIR: dataDir, TRUST_PROXY: 'loopback', DATABASE_URL: undefined },
    })
  })

  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('sends a visitor on 127.0.0.1 to the same page and query on APP_URL before anyone signs in', async () => {
    const answer = await fetch(`${otherAddress}/en/pricing?plan=pro`, { redirect: 'manual' })
    expect(answer.status, 'a permanent redirect that keeps the method').toBe(308)
    expect(answer.headers.get('location')).toBe(`${appUrl}/en/pricing?plan=pro`)
    const head = await fetch(`${otherAddress}/zh/`, { method: 'HEAD', redirect: 'manual' })
    expect(head.status).toBe(308)
    expect(head.headers.get('location')).toBe(`${appUrl}/zh/`)
  })

  it('refuses a sign-in posted to another address with 421 rather than dropping its body', async () => {
    const answer = await fetch(`${otherAddress}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: otherAddress, 'accept-language': 'zh' },
      body: JSON.stringify({ email: 'ada@example.com', password: 'correct-horse-9' }),
      redirect: 'manual',
    })
    expect(answer.status).toBe(421)
    expect(await answer.json()).toMatchObject({ code: 'MISDIRECTED_REQUEST', message: expect.stringContaining(appUrl) })
  })

  it('answers health checks on any address', async () => {
    const health = await fetch(`${otherAddress}/api/health`, { redirect: 'manual' })
    expect(health.status, await health.clone().text()).toBe(200)
  })

  it('takes the host a trusted proxy forwards, and redirects a forwarded host that is not the public one', async () => {
    const proxied = await fetch(`${otherAddress}/en/`, {
      headers: { 'x-forwarded-host': `localhost:${port}`, 'x-forwarded-for': '203.0.113.9' },
      redirect: 'manual',
    })
    expect(proxied.status, 'nginx forwards the public host: the page is served').toBe(200)
    await proxied.body?.cancel()
    const portless = await fetch(`${otherAddress}/en/`, {
      headers: { 'x-forwarded-host': 'localhost' },
      redirect: 'manual',
    })
    expect(portless.status, "nginx's $host carries no port: the host name is what counts").toBe(200)
    await portless.body?.cancel()
    const elsewhere = await fetch(`${appUrl}/en/`, {
      headers: { 'x-forwarded-host': 'www.localhost' },
      redirect: 'manual',
    })
    expect(elsewhere.status).toBe(308)
    expect(elsewhere.headers.get('location')).toBe(`${appUrl}/en/`)
  })
})
