import type { Page } from '@playwright/test'
import { landInConsoleThenOpenAccount, newAccount, signUpNewAccount, uniqueId } from './accounts'
import { expect, test, visit } from './fixtures'

function signUp(page: Page, name: string) {
  const email = `${name.toLowerCase().replace(/\W/g, '')}${uniqueId()}@example.com`
  return signUpNewAccount(page, newAccount({ name, email, password: 'pass-word-42' }))
}

test('two accounts in one browser: add, switch back and forth, sign out of one', async ({ page, request, baseURL }) => {
  test.slow() // one long story: two accounts, three switches and two page loads
  // B signs up elsewhere (Playwright's own request context, not this browser); this browser is A's, then adds B.
  const accountB = { name: 'Dorothy Vaughan', email: `dorothy${uniqueId()}@example.com`, password: 'pass-word-42' }
  const created = await request.post('/api/auth/sign-up/email', { data: accountB, headers: { origin: baseURL ?? '' } })
  expect(created.status()).toBe(200)
  const accountA = await signUp(page, 'Annie Easley')
  const menuButton = page.getByTestId('console-user')
  const accountName = page.getByTestId('account-name')
  await expect(accountName).toHaveText(accountA.name)

  await menuButton.click()
  await expect(page.getByTestId('switcher-current')).toContainText(accountA.email)
  await page.getByRole('menuitem', { name: 'Add another account' }).click()
  await expect(page).toHaveURL(/\/en\/sign-in\?redirect=%2Fen%2Fconsole$/)
  await page.getByLabel('Email or username', { exact: true }).fill(accountB.email)
  await page.getByLabel('Password', { exact: true }).fill(accountB.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await landInConsoleThenOpenAccount(page)
  await expect(accountName).toHaveText(accountB.name)

  await menuButton.click()
  await page.getByRole('menuitem', { name: `Switch to ${accountA.name}` }).click()
  await expect(page.getByText(`Switched to ${accountA.name}`)).toBeVisible()
  await expect(accountName).toHaveText(accountA.name)
  await expect(menuButton).toContainText(accountA.name)
  // The switch holds on a fresh page load too: it is the session, not just the page.
  await visit(page, '/en/console/account')
  await expect(accountName).toHaveText(accountA.name)

  await menuButton.click()
  await page.getByRole('menuitem', { name: `Switch to ${accountB.name}` }).click()
  await expect(accountName).toHaveText(accountB.name)

  // Signing out of A (not the current one) keeps B signed in, and A leaves the menu.
  await menuButton.click()
  await page.getByRole('menuitem', { name: `Sign out of ${accountA.name}` }).click()
  await expect(page.getByText(`Signed out of ${accountA.name}`)).toBeVisible()
  await visit(page, '/en/console/account')
  await expect(accountName).toHaveText(accountB.name)
  await menuButton.click()
  await expect(page.getByRole('menuitem', { name: `Switch to ${accountA.name}` })).toHaveCount(0)
  await expect(page.getByRole('menuitem', { name: 'Sign out', exact: true })).toBeVisible()
})

test('signing out of the current account switches to the other one', async ({ page }) => {
  const first = await signUp(page, 'Christine Darden')
  const menuButton = page.getByTestId('console-user')
  // Signing up while signed in adds the new account to this browser too.
  const second = await signUp(page, 'Mae Jemison')
  await expect(page.getByTestId('account-name')).toHaveText(second.name)

  await menuButton.click()
  await page.getByRole('menuitem', { name: `Sign out of ${second.name}` }).click()
  await expect(page.getByTestId('account-name')).toHaveText(first.name)
  await visit(page, '/en/console/account')
  await expect(page.getByTestId('account-name')).toHaveText(first.name)
})
