import { signUpNewAccount } from './accounts'
import { expect, test, visit } from './fixtures'

test.describe('landing page', () => {
  test('is server-rendered: the content is in the HTML before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const response = await page.goto('/en/')
    expect(response?.status()).toBe(200)
    await expect(page).toHaveTitle('Hatch')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Launch your AI product this week/)
    await expect(page.getByRole('heading', { name: 'Everything around your product, done' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible()
    await context.close()
  })

  test('hydrates without console errors and becomes interactive', async ({ page }) => {
    await visit(page, '/en/')
    await page.getByRole('button', { name: 'Theme' }).click()
    await page.getByRole('menuitemradio', { name: 'Dark' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })

  test('offers the console to a signed-in visitor, while the cached page stays the same for everyone', async ({
    page,
  }) => {
    const signedOutHtml = await (await page.request.get('/zh/')).text()
    await visit(page, '/zh/')
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: '登录' })).toBeVisible()
    await signUpNewAccount(page)
    // The same bytes a signed-out visitor got: nothing personal is rendered into the shared page.
    expect(await (await page.request.get('/zh/')).text()).toBe(signedOutHtml)
    await visit(page, '/zh/')
    await expect(header.getByRole('link', { name: '控制台' })).toBeVisible()
    await expect(header.getByRole('link', { name: '登录' })).toHaveCount(0)
    await header.getByRole('link', { name: '控制台' }).click()
    await expect(page).toHaveURL(/\/zh\/console$/)
  })

  test('describes each page once for search engines, in its language; docs pages with their own words', async ({
    request,
  }) => {
    const descriptionsOf = async (path: string) =>
      [...(await (await request.get(path)).text()).matchAll(/<meta name="description" content="([^"]*)"/g)].map(
        (match) => match[1],
      )
    expect(await descriptionsOf('/en/')).toEqual([
      expect.stringContaining('open-source starter for AI-powered web apps'),
    ])
    expect(await descriptionsOf('/zh/')).toEqual([expect.stringContaining('开源的 AI 网页应用起步套件')])
    expect(await descriptionsOf('/en/sign-in')).toHaveLength(1)
    const docs = await descriptionsOf('/en/docs/development/testing')
    expect(docs).toHaveLength(1)
    expect(docs[0]).not.toContain('open-source starter')
    // The skip link on every page has somewhere to go, docs included.
    expect(await (await request.get('/en/docs/development/testing')).text()).toContain('id="main"')
  })

  test('has a header that is transparent at the top and solid once scrolled', async ({ page }) => {
    await visit(page, '/en/')
    const header = page.locator('header')
    await expect(header).toHaveAttribute('data-scrolled', 'false')
    await page.mouse.wheel(0, 600)
    await expect(header).toHaveAttribute('data-scrolled', 'true')
    await page.evaluate(() => window.scrollTo(0, 5))
    await expect(header).toHaveAttribute('data-scrolled', 'false')
  })

  test('links to the source repository from the footer', async ({ page }) => {
    await visit(page, '/en/')
    const link = page.getByTestId('source-repository-link')
    await expect(link).toHaveAttribute('href', 'https://github.com/hatch-dev/hatch')
    await expect(link).toHaveText('Source code')
  })

  test('declares its language and both language alternates', async ({ page }) => {
    await visit(page, '/zh/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh')
    const alternates = page.locator('link[rel="alternate"]')
    await expect(alternates).toHaveCount(3)
    await expect(page.locator('link[hreflang="en"]')).toHaveAttribute('href', /\/en\/$/)
    await expect(page.locator('link[hreflang="zh"]')).toHaveAttribute('href', /\/zh\/$/)
  })

  for (const width of [360, 375]) {
    test(`fits a ${width} px wide phone without horizontal scrolling`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 812 })
      await visit(page, '/en/')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      await page.screenshot({ path: testInfo.outputPath(`landing-${width}.png`), fullPage: true })
      // The navigation moves into a menu.
      await page.getByRole('button', { name: 'Menu' }).click()
      await expect(page.getByRole('menuitem', { name: 'Docs' })).toBeVisible()
    })
  }

  test('is usable with the keyboard: skip link, then the header controls', async ({ page }) => {
    await visit(page, '/en/')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/#main$/)
    await page.getByRole('button', { name: 'Theme' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toBeHidden()
  })
})
