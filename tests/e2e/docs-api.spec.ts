import path from 'node:path'
import { docsPageUrls } from '../../scripts/docs-pages.ts'
import { installedAppNames } from '../../scripts/generate-apps.ts'
import { documentStatusError, expect, test, visit } from './fixtures'

/** Every docs page's locale-free URL, worked out from the files: the core's and each installed app's. */
function docsUrlsFromFiles(): string[] {
  const folders = [
    path.resolve('content/docs'),
    ...installedAppNames().map((app) => path.resolve('src/features', app, 'docs')),
  ]
  return folders.flatMap((folder) => docsPageUrls(folder)).sort()
}

test.describe('the docs server function', () => {
  // The browser reports the 400 answers this test provokes.
  test.use({ expectedConsoleErrors: documentStatusError(400) })

  test('rejects malformed input with 400 and a message naming the field', async ({ page }) => {
    // Capture the request a client-side navigation makes, then send it again with bad input.
    await visit(page, '/en/docs')
    const request = page.waitForRequest((candidate) => candidate.url().includes('/_serverFn/'))
    await page.locator('#nd-sidebar').getByRole('link', { name: 'Workspace' }).click()
    const url = (await request).url()
    expect(url).toContain('%22workspace%22')

    const send = (target: string) =>
      page.evaluate(async (address) => {
        const response = await fetch(address)
        return { status: response.status, body: await response.text() }
      }, target)
    const unknownLanguage = await send(url.replaceAll('%22en%22', '%22fr%22'))
    expect(unknownLanguage.status).toBe(400)
    expect(unknownLanguage.body).toContain('lang must be one of: en, zh')
    const slugsNotAList = await send(url.replace('%22slugs%22', '%22slugz%22'))
    expect(slugsNotAList.status).toBe(400)
    expect(slugsNotAList.body).toContain('slugs must be a list of strings')
    const valid = await send(url)
    expect(valid.status).toBe(200)
  })
})

test.describe('serving docs pages', () => {
  test('renders a page once, then serves it from the cache', async ({ request }) => {
    await request.get('/en/docs/deployment')
    const again = await request.get('/en/docs/deployment')
    expect(again.status()).toBe(200)
    expect(again.headers()['x-cache']).toBe('hit')
    expect(await again.text()).toContain('<title>Deployment – Hatch</title>')
    const unknown = await request.get('/en/docs/no-such-page')
    expect(unknown.status()).toBe(404)
    expect(unknown.headers()['x-cache']).toBeUndefined()
  })
})

test.describe('docs for AI assistants and crawlers', () => {
  test('llms.txt lists every page in both languages, with its description', async ({ request }) => {
    const response = await request.get('/llms.txt')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toContain('text/markdown')
    const text = await response.text()
    const expected = docsUrlsFromFiles()
    expect(expected.length).toBeGreaterThanOrEqual(12)
    for (const lang of ['en', 'zh']) {
      for (const url of expected) expect(text, `${lang}${url}`).toContain(`/${lang}${url}.md)`)
    }
    expect(text).toMatch(/\[Testing\]\(http:\/\/localhost:\d+\/en\/docs\/development\/testing\.md\): \S/)
  })

  test('llms-full.txt holds every page in full, and each page is Markdown at its URL plus .md', async ({ request }) => {
    const full = await (await request.get('/llms-full.txt')).text()
    expect(full).toContain('# Testing')
    expect(full).toContain('# 测试')
    const english = await request.get('/en/docs/development/testing.md')
    expect(english.status()).toBe(200)
    expect(await english.text()).toMatch(/^# Testing\n/)
    const chinese = await request.get('/zh/docs/development/testing.md')
    expect(await chinese.text()).toMatch(/^# 测试\n/)
    expect((await request.get('/en/docs.md')).status()).toBe(200)
    expect((await request.get('/en/docs/no-such-page.md')).status()).toBe(404)
  })

  test('sitemap.xml lists each page in both languages with alternates', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text()
    for (const url of docsUrlsFromFiles()) {
      expect(xml).toContain(`/en${url}</loc>`)
      expect(xml).toContain(`/zh${url}</loc>`)
    }
    expect(xml).toContain('hreflang="x-default"')
    expect(await (await request.get('/robots.txt')).text()).toContain('/sitemap.xml')
  })
})
