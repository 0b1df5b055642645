import { documentStatusError, expect, test, visit } from '../../../../../tests/e2e/fixtures'

test.describe('blog and changelog', () => {
  test('the blog lists its posts with date, author and tags, and a post reads like the docs', async ({ page }) => {
    await visit(page, '/en/blog')
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible()
    const entry = page.getByTestId('post-entry').filter({ hasText: 'Introducing Hatch' })
    await expect(entry).toContainText('November 27, 2026')
    await expect(entry).toContainText('by The Hatch team')
    await expect(entry).toContainText('announcement')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await entry.getByRole('link', { name: 'Introducing Hatch' }).click()
    await expect(page).toHaveURL(/\/en\/blog\/introducing-hatch$/)
    await expect(page).toHaveTitle('Introducing Hatch')
    // Feed readers find the feeds in the head, of a post as of the index, also after a navigation in the browser.
    await expect(page.locator('head link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
      'href',
      '/en/blog/rss.xml',
    )
    await expect(page.getByRole('heading', { level: 2, name: 'What you get' })).toBeVisible()
    // Code blocks as the docs show them: highlighted, with a copy button.
    await expect(page.locator('pre').first()).toContainText('npm install && npm start')
    await expect(page.getByRole('button', { name: /copy/i }).first()).toBeAttached()
    await page.getByRole('link', { name: 'Blog' }).first().click()
    await expect(page).toHaveURL(/\/en\/blog$/)
  })

  test('the changelog lists one entry per release, newest first, in Chinese too', async ({ page }) => {
    await visit(page, '/zh/changelog')
    await expect(page.getByRole('heading', { level: 1, name: '更新日志' })).toBeVisible()
    await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
      'href',
      '/zh/changelog/atom.xml',
    )
    const dates = await page
      .getByTestId('post-entry')
      .locator('time')
      .evaluateAll((times) => times.map((time) => time.getAttribute('datetime') ?? ''))
    expect(dates.length).toBeGreaterThanOrEqual(8)
    expect(dates).toEqual([...dates].sort().reverse())
    await expect(page.getByTestId('post-entry').first()).toContainText('变成你的产品，并且不丢数据')
    await visit(page, '/zh/changelog/billing')
    await expect(page.getByRole('heading', { level: 1, name: '带账本的支付' })).toBeVisible()
    await expect(page.locator('article')).toContainText('与支付提供方无关的账本')
  })

  test.describe('an unknown post', () => {
    // The browser reports the page's 404.
    test.use({ expectedConsoleErrors: documentStatusError(404) })
    test('is a page that says so, with the site around it', async ({ page }) => {
      const answer = await page.goto('/en/blog/no-such-post')
      expect(answer?.status()).toBe(404)
      await expect(page.getByRole('contentinfo')).toContainText('Changelog')
    })
  })

  test('feeds, the sitemap and llms.txt list the posts in each language', async ({ request }) => {
    const rss = await request.get('/en/blog/rss.xml')
    expect(rss.headers()['content-type']).toContain('application/rss+xml')
    const rssText = await rss.text()
    expect(rssText).toContain('<title>Introducing Hatch</title>')
    expect(rssText).toMatch(/<link>http:\/\/localhost:\d+\/en\/blog\/introducing-hatch<\/link>/)
    const atom = await request.get('/zh/changelog/atom.xml')
    expect(atom.headers()['content-type']).toContain('application/atom+xml')
    const atomText = await atom.text()
    expect(atomText).toContain('xml:lang="zh-CN"')
    expect(atomText).toContain('<title>带账本的支付</title>')
    const sitemap = await (await request.get('/sitemap.xml')).text()
    expect(sitemap).toMatch(/\/zh\/blog\/introducing-hatch<\/loc>/)
    expect(sitemap).toMatch(/\/en\/changelog<\/loc>/)
    // Cached like the other public pages: the same bytes for everyone, and 304 for a browser that has them.
    for (const path of ['/en/blog', '/zh/changelog/billing', '/en/blog/rss.xml']) {
      const first = await request.get(path)
      expect(first.headers()['cache-control'], path).toBe('public, no-cache')
      const again = await request.get(path, { headers: { 'if-none-match': first.headers().etag ?? '' } })
      expect(again.status(), path).toBe(304)
    }
    const llms = await (await request.get('/llms.txt')).text()
    expect(llms).toContain('[Introducing Hatch]')
    expect(llms).toContain('[Hatch 正式发布]')
  })
})
