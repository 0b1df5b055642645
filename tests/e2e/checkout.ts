import type { Page } from '@playwright/test'
import { expect, visit } from './fixtures'

/** From the checkout page (already open) to the built-in provider's page. */
export async function continueToPayment(page: Page, continueLabel = 'Continue to payment') {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await page.getByRole('button', { name: continueLabel }).click()
  await expect(page).toHaveURL(/\/pay\/lcs_/)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

export async function startProCheckout(page: Page) {
  await visit(page, '/en/checkout?plan=pro&interval=monthly')
  await expect(page.getByTestId('checkout-total')).toHaveText('$19 per month')
  await continueToPayment(page)
}
