import type { Page } from '@playwright/test'
import { signInAsAppAdmin } from './accounts'
import { expect, test, visit } from './fixtures'

test.describe('the Dashboard', () => {
  test('monthly recurring revenue is written as money in both languages, even before the first payment', async ({
    page,
  }) => {
    // Before any payment the one tile reads "$0.00" (yuan in Chinese); after one (other tests pay in several
    // currencies), a tile per currency: each a currency symbol before its amount, never a bare number.
    const money = /^[^\d\s]+\s?[\d,]+(\.\d+)?$/
    const mrr = (page: Page) => page.locator('dd[data-testid^="kpi-mrr"]')
    await signInAsAppAdmin(page, 'en')
    await expect(mrr(page).first()).toHaveText(money)
    for (const tile of await mrr(page).all()) await expect(tile).toHaveText(money)
    await visit(page, '/zh/console')
    await expect(mrr(page).first()).toHaveText(money)
    for (const tile of await mrr(page).all()) await expect(tile).toHaveText(money)
  })
})
