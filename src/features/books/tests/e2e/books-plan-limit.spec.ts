import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { startProCheckout } from '../../../../../tests/e2e/checkout'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

const csvOfTitles = (count: number) => ({
  name: 'titles.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(['title', ...Array.from({ length: count }, (_, index) => `Volume ${index + 1}`)].join('\n')),
})

test('Free holds 50 books: the 51st is refused with the way to upgrade, and Pro lifts the limit', async ({ page }) => {
  test.slow()
  await visit(page, '/en/#pricing')
  await expect(page.getByTestId('plan-free')).toContainText('Up to 50 books per organization')
  await expect(page.getByTestId('plan-pro')).toContainText('Unlimited books')
  await signUpNewAccount(page)

  // Fifty books fill the plan.
  await visit(page, '/en/console/books')
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await page.getByRole('button', { name: 'Import CSV' }).first().click()
  await page.getByLabel('CSV file').setInputFiles(csvOfTitles(50))
  await page.getByRole('button', { name: 'Import 50 books' }).click()
  await expect(page.getByText('Imported 50 books.')).toBeVisible()
  // The limit is shown before anyone fills in a form: adding is disabled, with the reason and the way past it.
  const limit = page.getByTestId('plan-limit-reached-books')
  await expect(limit).toContainText('This organization has 50 of the 50 books its plan allows')
  await expect(page.getByRole('button', { name: 'New book' }).first()).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Import CSV' }).first()).toBeDisabled()
  await limit.getByRole('link', { name: 'Upgrade', exact: true }).click()
  await expect(page).toHaveURL(/\/en\/console\/organization\/billing$/)
  // Billing counts them among the plan's usage.
  await expect(page.getByTestId('usage-books')).toContainText('50')

  // Pro, paid on the built-in provider's page: the limit is gone.
  await startProCheckout(page)
  await page.getByRole('button', { name: 'Pay $19' }).click()
  await expect(page).toHaveURL(/\/en\/my-orders\?order=/)
  await visit(page, '/en/console/books')
  await expect(page.getByTestId('plan-limit-reached-books')).toHaveCount(0)
  await page.getByRole('button', { name: 'New book' }).first().click()
  const form = page.getByRole('form', { name: 'New book' })
  await form.getByLabel('Title', { exact: true }).fill('No longer too many')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByTestId('plan-limit')).toHaveCount(0)
  await expect(page.getByTestId('book-row').filter({ hasText: 'No longer too many' })).toHaveCount(1)
})
