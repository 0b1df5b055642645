import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

test.describe('the pricing section', () => {
  test('is in the landing page’s HTML before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    expect((await page.goto('/en/'))?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: 'Simple pricing' })).toBeVisible()
    await expect(page.getByTestId('plan-pro')).toContainText('Pro')
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'href',
      '/en/#pricing',
    )
    await context.close()
  })

  test('shows yearly prices once hydrated', async ({ page }) => {
    await visit(page, '/en/')
    await expect(page.getByTestId('price-pro')).toHaveText('$19')
    await page.getByRole('button', { name: /^Yearly/ }).click()
    await expect(page.getByRole('button', { name: /^Yearly/ })).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByTestId('price-pro')).toHaveText('$15.83')
    await expect(page.getByTestId('plan-pro')).toContainText('Billed $190 yearly')
    await expect(page.getByTestId('plan-team')).toContainText('Billed $490 per user yearly')
    await expect(page.getByTestId('price-free')).toHaveText('$0')
  })

  test('shows prices and plans in Chinese on /zh/', async ({ page }) => {
    await visit(page, '/zh/')
    await expect(page.getByRole('heading', { name: '简单的价格' })).toBeVisible()
    await expect(page.getByTestId('plan-team')).toContainText('团队版')
    // Chinese visitors see yuan, and the cards name the limits the server enforces.
    await expect(page.getByTestId('price-pro')).toHaveText('¥129')
    await expect(page.getByTestId('plan-free')).toContainText('每个组织最多 50 本图书')
  })

  test('scrolls to the pricing section from the header link', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await visit(page, '/en/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL(/\/en\/#pricing$/)
    const pricing = page.locator('#pricing')
    await expect(pricing).toBeInViewport()
    await expect.poll(async () => (await pricing.boundingBox())?.y).toBeLessThan(120)
  })

  test('is reached from the menu on a 360 px wide phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 812 })
    await visit(page, '/en/')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('menuitem', { name: 'Pricing' }).click()
    await expect(page.locator('#pricing')).toBeInViewport()
  })
})
