import { documentStatusError, expect, test, visit } from './fixtures'

test.describe('locale URLs', () => {
  test('a browser preferring Chinese lands on /zh/', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'zh-CN' })
    const page = await context.newPage()
    await visit(page, '/')
    await expect(page).toHaveURL(/\/zh\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/本周就上线你的 AI 产品/)
    await context.close()
  })

  test('the lang cookie wins over the browser language', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: 'zh-CN' })
    await context.addCookies([{ name: 'lang', value: 'en', url: baseURL ?? '' }])
    const page = await context.newPage()
    await visit(page, '/')
    await expect(page).toHaveURL(/\/en\/$/)
    await context.close()
  })

  test('a cookie naming an unknown language is ignored, not an error', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ locale: 'zh-CN' })
    await context.addCookies([{ name: 'lang', value: 'fr', url: baseURL ?? '' }])
    const page = await context.newPage()
    const response = await visit(page, '/')
    expect(response?.status()).toBe(200)
    await expect(page).toHaveURL(/\/zh\/$/)
    await context.close()
  })

  test('switching language keeps the page and remembers the choice in the lang cookie', async ({ page, context }) => {
    await visit(page, '/en/#features')
    await page.getByRole('button', { name: 'Choose a language' }).click()
    await page.getByRole('menuitemradio', { name: '中文' }).click()
    await expect(page).toHaveURL(/\/zh\/#features$/)
    await expect(page.getByRole('heading', { name: '产品之外的一切，都已完成' })).toBeVisible()
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'lang')
    expect(cookie?.value).toBe('zh')
    expect(cookie?.path).toBe('/')
    const maxAgeSeconds = (cookie?.expires ?? 0) - Date.now() / 1000
    expect(maxAgeSeconds).toBeGreaterThan(34_560_000 - 120)
    expect(maxAgeSeconds).toBeLessThanOrEqual(34_560_000 + 1)
    // The next unprefixed visit follows the choice.
    await visit(page, '/')
    await expect(page).toHaveURL(/\/zh\/$/)
    await page.getByRole('button', { name: '选择语言' }).click()
    await page.getByRole('menuitemradio', { name: 'English' }).click()
    await expect(page).toHaveURL(/\/en\/$/)
  })

  test.describe('a page visit to /api', () => {
    // A JSON answer has no <link rel=icon>, so the browser asks for /favicon.ico by itself.
    test.use({ expectedConsoleErrors: documentStatusError(404) })
    test('paths under /api are never localized or redirected, even as a page visit', async ({ page }) => {
      const response = await page.goto('/api/health')
      expect(response?.status()).toBe(200)
      expect(page.url()).toMatch(/\/api\/health$/)
      expect(await response?.json()).toEqual({ status: 'ok' })
    })
  })
})
