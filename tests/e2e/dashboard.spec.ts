import type { Page } from '@playwright/test'
import { signInAsAppAdmin } from './accounts'
import { expect, test, visit } from './fixtures'

test.describe('the Dashboard', () => {
  test('monthly recurring revenue is written as money in both languages, even before the first payment', async ({
    page,
  }) => {
    // Before any payment the one tile reads "$0.00" (yuan in Chinese); after one, a tile per currency.
    const mrr = (page: Page) => page.locator('dd[data-testid^="kpi-mrr"]').first()
    await signInAsAppAdmin(page, 'en')
    await expect(mrr(page)).toHaveText(/^(\$0\.00|[^\d]*\$[\d,.]+)$/)
    await visit(page, '/zh/console')
    await expect(mrr(page)).toHaveText(/^(¥0\.00|[^\d]*[$¥][\d,.]+)$/)
  })
})
