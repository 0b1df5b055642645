import { signUpNewAccount, uniqueId } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { createOrganization, switcher } from '../../../../../tests/e2e/organization-switcher'

test.describe('books per organization', () => {
  test('creating or switching an organization shows its own books at once, without a reload', async ({ page }) => {
    const account = await signUpNewAccount(page)
    await visit(page, '/en/console/books')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByRole('button', { name: 'New book' }).first().click()
    const form = page.getByRole('form', { name: 'New book' })
    await form.getByLabel('Title', { exact: true }).fill('Only in my workspace')
    await form.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByTestId('book-row').filter({ hasText: 'Only in my workspace' })).toHaveCount(1)

    // Created from the switcher on this page: the new organization is active, and its (empty) list shows.
    await createOrganization(page, `Fresh Library ${uniqueId()}`)
    await expect(page.getByTestId('empty-state')).toContainText('No books yet')
    await expect(page.getByTestId('book-row')).toHaveCount(0)

    // And back: the workspace's book again, still without a reload.
    await switcher(page).click()
    await page.getByRole('menuitem', { name: `${account.name}'s workspace` }).click()
    await expect(page.getByTestId('book-row').filter({ hasText: 'Only in my workspace' })).toHaveCount(1)
  })
})
