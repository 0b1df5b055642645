import { appAdmin } from './app-admin'
import { expect, test, visit } from './fixtures'

const port = Number(process.env.E2E_PORT ?? 3211)

/** The headers every kind of answer must carry (issue 12). */
function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff')
  expect(headers['referrer-policy'], `${what}: referrer policy`).toBe('strict-origin-when-cross-origin')
  expect(headers['content-security-policy'], `${what}: no framing`).toContain("frame-ancestors 'none'")
  expect(headers['x-frame-options'], `${what}: no framing (older browsers)`).toBe('DENY')
  expect(headers['permissions-policy'], `${what}: permissions policy`).toContain('camera=()')
  // Served over plain HTTP here: HSTS would only pin localhost to HTTPS.
  expect(headers['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined()
}

test.describe('security by default', () => {
  test('pages, API answers, redirects, errors and static files carry the security headers', async ({ request }) => {
    const landing = await request.get('/en/')
    expectSecurityHeaders(landing.headers(), 'landing page')
    const docs = await request.get('/en/docs')
    expectSecurityHeaders(docs.headers(), 'docs page (served from the page cache)')
    expectSecurityHeaders((await request.get('/api/health')).headers(), 'API answer')
    expectSecurityHeaders((await request.get('/nowhere', { maxRedirects: 0 })).headers(), 'locale redirect')
    expectSecurityHeaders((await request.get('/en/no-such-page')).headers(), '404 page')
    expectSecurityHeaders((await request.get('/favicon.svg')).headers(), 'file from public/')
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(await landing.text())?.[1]
    expect(script, 'the landing page loads a build asset').toBeTruthy()
    expectSecurityHeaders((await request.get(script ?? '')).headers(), 'build asset')
  })

  test('pages run only their own scripts: a fresh nonce per request, or hashes on pages kept for everyone', async ({
    request,
  }) => {
    const inlineScripts = (html: string) =>
      [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
        ([, attributes]) => !/\ssrc=/.test(attributes ?? ''),
      )
    const scriptSource = (policy: string) => /script-src ([^;]+)/.exec(policy)?.[1] ?? ''

    const first = await request.get('/en/sign-in')
    const second = await request.get('/en/sign-in')
    const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1]
    const nonce = nonceOf(first.headers()['content-security-policy'] ?? '')
    expect(nonce, 'a rendered page names a nonce').toBeTruthy()
    expect(nonceOf(second.headers()['content-security-policy'] ?? ''), 'never the same twice').not.toBe(nonce)
    expect(scriptSource(first.headers()['content-security-policy'] ?? '')).not.toContain('unsafe-inline')
    const scripts = inlineScripts(await first.text())
    expect(scripts.length, 'the page has inline scripts (theme, router state)').toBeGreaterThan(0)
    for (const [tag] of scripts) expect(tag, 'every inline script carries the nonce').toContain(`nonce="${nonce}"`)

    const landing = await request.get('/en/')
    const landingPolicy = landing.headers()['content-security-policy'] ?? ''
    expect(scriptSource(landingPolicy), 'a shared page allows its scripts by hash').toMatch(/'sha256-/)
    expect(landingPolicy).not.toContain("'nonce-")
    expect(scriptSource(landingPolicy)).not.toContain('unsafe-inline')
    const missing = await request.get('/en/docs/no-such-page')
    expect(missing.status()).toBe(404)
    expect(scriptSource(missing.headers()['content-security-policy'] ?? ''), 'a page not kept too').toMatch(/'sha256-/)
  })

  test('pages every visitor sees alike come from memory, compressed, with an ETag', async ({ request }) => {
    await request.get('/en/')
    const landing = await request.get('/en/', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(landing.headers()['x-cache'], 'served from memory').toBe('hit')
    expect(landing.headers()['content-encoding']).toBe('br')
    expect(landing.headers()['cache-control']).toBe('public, no-cache')
    expect(await landing.text(), 'Playwright decodes it: the page itself').toContain('</html>')
    const unchanged = await request.get('/en/', { headers: { 'if-none-match': landing.headers().etag ?? '' } })
    expect(unchanged.status(), 'a browser that has the page gets 304').toBe(304)
    for (const path of ['/zh/', '/en/docs/configuration', '/llms.txt', '/sitemap.xml']) {
      await request.get(path)
      expect((await request.get(path)).headers()['x-cache'], `${path} is kept`).toBe('hit')
    }
    const signIn = await request.get('/en/sign-in')
    expect(signIn.headers()['x-cache'], 'an auth page is rendered for each visitor').toBeUndefined()
  })

  test('pages rendered per visitor, API answers and build assets come compressed', async ({ request }) => {
    const signIn = await request.get('/en/sign-in', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(signIn.headers()['content-encoding'], 'a page rendered for this request').toBe('br')
    expect(signIn.headers().vary).toContain('Accept-Encoding')
    expect(await signIn.text(), 'Playwright decodes it: the page itself').toContain('</html>')
    const markdown = await request.get('/en/docs/development/testing.md', { headers: { 'accept-encoding': 'gzip' } })
    expect(markdown.headers()['content-encoding'], 'a text answer').toBe('gzip')
    expect(await markdown.text()).toContain('#')
    // The start-up chunk every page preloads (vite.config.ts); the entry script itself is too small to compress.
    const script = /<link[^>]+modulepreload[^>]+href="(\/assets\/app-[^"]+\.js)"/.exec(await signIn.text())?.[1] ?? ''
    expect(script, 'the page preloads its start-up chunk').not.toBe('')
    const asset = await request.get(script, { headers: { 'accept-encoding': 'br' } })
    expect(asset.headers()['content-encoding'], 'a build asset, compressed at build time').toBe('br')
    expect(asset.headers()['cache-control'], 'named by its content: kept for a year').toBe(
      'public, max-age=31536000, immutable',
    )
    const kept = await request.get(script, {
      headers: { 'accept-encoding': 'br', 'if-none-match': asset.headers().etag ?? '' },
    })
    expect(kept.status(), 'a browser that has it gets 304').toBe(304)
    const tiny = await request.get('/api/health', { headers: { 'accept-encoding': 'br' } })
    expect(tiny.headers()['content-encoding'], 'too small to be worth it').toBeUndefined()
  })

  test('a newcomer who opens http://127.0.0.1 instead of localhost is moved to localhost and can sign in', async ({
    page,
  }) => {
    await visit(page, `http://127.0.0.1:${port}/en/sign-in`)
    await expect(page).toHaveURL(`http://localhost:${port}/en/sign-in`)
    await page.getByLabel('Email or username', { exact: true }).fill(appAdmin.email)
    await page.getByLabel('Password', { exact: true }).fill(appAdmin.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL(`http://localhost:${port}/en/console`)
    await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible()
  })

  test('what is personal to a visitor is kept by no proxy or CDN; pages for everyone keep their caching', async ({
    request,
  }) => {
    const signIn = await request.post('/api/auth/sign-in/email', {
      headers: { origin: `http://localhost:${port}` },
      data: { email: appAdmin.email, password: appAdmin.password },
    })
    expect(signIn.status(), 'the app admin signs in').toBe(200)
    expect(signIn.headers()['cache-control'], 'the sign-in answer').toBe('private, no-store')
    const personal = {
      'a console page': '/en/console',
      'a console page in Chinese': '/zh/console/account',
      'the sign-in page': '/en/sign-in',
      'a tRPC answer': '/api/trpc/account.me',
      'the session check': '/api/auth/get-session',
    }
    for (const [what, path] of Object.entries(personal)) {
      const answer = await request.get(path, { maxRedirects: 0 })
      expect(answer.status(), `${what} answers the signed-in admin`).toBe(200)
      expect(answer.headers()['cache-control'], what).toBe('private, no-store')
    }
    expect(await (await request.get('/api/trpc/account.me')).text(), 'the tRPC answer is the admin’s').toContain(
      appAdmin.email,
    )
    for (const path of ['/en/', '/en/docs/configuration']) {
      await request.get(path)
      const shared = await request.get(path)
      expect(shared.headers()['x-cache'], `${path} comes from memory`).toBe('hit')
      expect(shared.headers()['cache-control'], `${path} keeps its public caching`).toBe('public, no-cache')
    }
  })

  test('/.well-known/security.txt tells a researcher where to report, at this server’s public URL', async ({
    request,
  }) => {
    const answer = await request.get('/.well-known/security.txt')
    expect(answer.status()).toBe(200)
    expect(answer.headers()['content-type']).toBe('text/plain; charset=utf-8')
    const text = await answer.text()
    expect(text).toContain('Contact: https://github.com/hatch-dev/hatch/security/advisories/new\n')
    expect(text).toContain(`Canonical: http://localhost:${port}/.well-known/security.txt\n`)
    expect(text).toContain(`Policy: http://localhost:${port}/en/docs/security\n`)
    expect(text).toMatch(/^Expires: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m)
  })

  test('a request from another site is refused by the auth API', async ({ request }) => {
    const answer = await request.post('/api/auth/sign-in/email', {
      headers: { origin: 'https://evil.example', cookie: 'lang=en' },
      data: { email: appAdmin.email, password: appAdmin.password },
    })
    expect(answer.status()).toBe(403)
  })
})

test.describe('the script policy at work', () => {
  test.use({ expectedConsoleErrors: /Content Security Policy/ })

  test('a script injected into a page does not run, and the page says why in the console', async ({ page }) => {
    await visit(page, '/en/sign-in')
    const consoleReport = page.waitForEvent('console', {
      predicate: (message) => message.type() === 'error' && /Content Security Policy/.test(message.text()),
    })
    const violation = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), {
            once: true,
          })
          const injected = document.createElement('script')
          injected.textContent = 'window.injected = true'
          document.body.append(injected)
        }),
    )
    expect(violation, 'the browser refused it under the script policy').toMatch(/^script-src/)
    expect((await consoleReport).text()).toContain('Content Security Policy')
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined()
  })
})

test.describe('the browser reports nothing about the policies', () => {
  for (const path of ['/en/', '/en/docs/development/testing', '/en/sign-in']) {
    test(`${path} causes no policy issue and no header warning in Chromium`, async ({ page }) => {
      // Chromium's Issues panel (what Lighthouse's best practices read) also lists refused probes, such as a
      // library trying eval, which never reach the console.
      const cdp = await page.context().newCDPSession(page)
      const issues: string[] = []
      cdp.on('Audits.issueAdded', ({ issue }) => {
        if (issue.code === 'ContentSecurityPolicyIssue') issues.push(JSON.stringify(issue.details))
      })
      await cdp.send('Audits.enable')
      const warnings: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'warning' && /policy/i.test(message.text())) warnings.push(message.text())
      })
      await visit(page, path)
      await page.waitForLoadState('networkidle')
      expect(issues, 'Content-Security-Policy issues').toEqual([])
      expect(warnings, 'policy warnings in the console').toEqual([])
    })
  }
})
