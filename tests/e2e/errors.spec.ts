import { documentStatusError, expect, test, visit } from './fixtures'

test.describe('no route matches', () => {
  test.use({ expectedConsoleErrors: documentStatusError(404) })

  test('answers 404 with the root not-found screen, and Back to Home works', async ({ page }) => {
    const response = await visit(page, '/en/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page).toHaveTitle('Not Found')
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
    await expect(page.getByRole('main').getByText('Not Found', { exact: true })).toHaveCount(2)
    await page.getByRole('link', { name: 'Back to Home' }).click()
    await expect(page).toHaveURL(/\/en\/$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Launch your AI product/)
  })

  test('is translated on /zh', async ({ page }) => {
    const response = await visit(page, '/zh/a/b/c')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: '页面未找到' })).toBeVisible()
    await expect(page.getByRole('link', { name: '返回首页' })).toHaveAttribute('href', '/zh/')
  })
})

test.describe('a page missing inside a layout', () => {
  test.use({ expectedConsoleErrors: documentStatusError(404) })

  test('keeps the layout and offers Go back and Start Over', async ({ page }) => {
    await visit(page, '/en/')
    const response = await visit(page, '/en/debug/missing')
    expect(response?.status()).toBe(404)
    await expect(page.getByText('The page you are looking for does not exist.')).toBeVisible()
    await expect(page.locator('header')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Start Over' })).toHaveAttribute('href', '/en/')
    await page.getByRole('button', { name: 'Go back' }).click()
    await expect(page).toHaveURL(/\/en\/$/)
  })

  test('is translated on /zh', async ({ page }) => {
    await visit(page, '/zh/debug/missing')
    await expect(page.getByText('你要找的页面不存在。')).toBeVisible()
    await expect(page.getByRole('button', { name: '返回' })).toBeVisible()
    await expect(page.getByRole('link', { name: '重新开始' })).toBeVisible()
  })
})

test.describe('a route that fails', () => {
  // The router logs a route's error to the console; the server sends it only as a generic message (no internals).
  test.use({ expectedConsoleErrors: documentStatusError(500, /Something went wrong on our side|服务器出了点问题/) })

  test('answers 500, shows the error on request, and Try Again loads the route again', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'hatch-debug-fail', value: '1', url: baseURL ?? '' }])
    const response = await visit(page, '/en/debug/error')
    expect(response?.status()).toBe(500)
    await expect(page.getByRole('heading', { name: 'Something went wrong!' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible()
    const shown = page.getByText('Something went wrong on our side. Please try again.')
    await expect(shown).toBeHidden()
    await page.getByRole('button', { name: 'Show Error' }).click()
    // What failed stays on the server: the page gets a generic message, never the error's own text or stack.
    await expect(shown).toBeVisible()
    await expect(page.getByText('The debug scenario failed on purpose.')).toHaveCount(0)
    await page.getByRole('button', { name: 'Hide Error' }).click()
    await expect(shown).toBeHidden()

    await context.clearCookies({ name: 'hatch-debug-fail' })
    await page.getByRole('button', { name: 'Try Again' }).click()
    await expect(page.getByTestId('debug-result')).toContainText('The route loaded without errors.')
  })

  test('is translated on /zh', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'hatch-debug-fail', value: '1', url: baseURL ?? '' }])
    const response = await visit(page, '/zh/debug/error')
    expect(response?.status()).toBe(500)
    await expect(page.getByRole('heading', { name: '出错了！' })).toBeVisible()
    await expect(page.getByRole('button', { name: '重试' })).toBeVisible()
    await expect(page.getByRole('button', { name: '显示错误' })).toBeVisible()
  })
})
