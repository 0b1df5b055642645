import type { Page } from '@playwright/test'
import { signOut, signUpNewAccount, uniqueId } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

// The app signs in through a real OpenID provider on 127.0.0.1 (tests/support/oidc-provider.ts, started by
// tests/e2e/server.ts as the generic provider "Hatch ID"). Its login form takes any login name; each is a user.
const providerName = 'Hatch ID'
const unique = uniqueId
const providerEmail = (login: string) => `${login}@oidc.example.test`

test.beforeEach(async ({ context }) => {
  // The provider's development pages import a web font from the internet, which this machine cannot reach.
  await context.route('https://fonts.googleapis.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  )
})

/** The provider's own login and consent pages, as a person would go through them the first time. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
  await page.getByPlaceholder('Enter any login').fill(login)
  await page.getByPlaceholder('and password').fill('any-password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}

/** In the Account area after a full page load (from the provider or after sign-up), with React ready for clicks. */
async function expectInAccount(page: Page) {
  // A sign-in lands on the console's Dashboard; linking from the Account area comes back to it.
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/en\/console(\/account)?$/)
  if (!page.url().endsWith('/account')) await visit(page, '/en/console/account')
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

async function signUpWithPassword(page: Page) {
  const account = await signUpNewAccount(page)
  await expectInAccount(page)
  return account
}

test.describe('sign-in through an OpenID provider', () => {
  // The refused unlink of the last sign-in method is a 400 the browser reports.
  test.use({ expectedConsoleErrors: documentStatusError(400) })
  // Each test makes several round trips through the provider.
  test.describe.configure({ timeout: 90_000 })

  test('signs in as the provider user, and a second sign-in is the same user', async ({ page }) => {
    const login = `ada${unique()}`
    await visit(page, '/en/sign-in')
    await page.getByRole('button', { name: `Continue with ${providerName}` }).click()
    await signInAtProvider(page, login)
    await expectInAccount(page)
    await expect(page.getByTestId('account-email')).toContainText(providerEmail(login))
    await expect(page.getByTestId('account-email')).toContainText('Verified')
    await expect(page.getByTestId('account-name')).toHaveText(`OIDC ${login}`)

    // A new name here survives the next sign-in: it is the same user, not a new one.
    const profile = page.getByRole('form', { name: 'Profile' })
    await profile.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
    await profile.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByTestId('account-name')).toHaveText('Ada Lovelace')
    await signOut(page)

    // The provider remembers this browser, so it sends it straight back.
    await page.getByRole('button', { name: `Continue with ${providerName}` }).click()
    await expectInAccount(page)
    await expect(page.getByTestId('account-name')).toHaveText('Ada Lovelace')
    await expect(page.getByTestId('account-email')).toContainText(providerEmail(login))

    // The provider is this user's only sign-in method: it cannot be unlinked, in the page or through the API.
    const linked = page.getByTestId('linked-accounts').getByRole('listitem')
    await expect(linked).toHaveCount(1)
    await expect(linked).toContainText(providerName)
    await expect(page.getByRole('button', { name: `Unlink ${providerName}` })).toBeDisabled()
    await expect(page.getByText('This is your only sign-in method, so it cannot be unlinked.')).toBeVisible()
    const refused = await page.evaluate(async () => {
      const list = await fetch('/api/auth/list-accounts').then((response) => response.json())
      const response = await fetch('/api/auth/unlink-account', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: list[0].id }),
      })
      return { status: response.status, code: (await response.json()).code }
    })
    expect(refused).toEqual({ status: 400, code: 'FAILED_TO_UNLINK_LAST_ACCOUNT' })
    await page.reload()
    await expect(linked).toHaveCount(1)
  })

  test('links the provider to a password account, signs in through it, and unlinks it', async ({ page }) => {
    const account = await signUpWithPassword(page)
    const linked = page.getByTestId('linked-accounts').getByRole('listitem')
    await expect(linked).toHaveCount(1)
    await expect(linked).toContainText('Email and password')

    const login = `grace${unique()}`
    await page.getByRole('button', { name: `Link ${providerName}`, exact: true }).click()
    await signInAtProvider(page, login)
    await expectInAccount(page)
    await expect(linked).toHaveCount(2)
    await expect(linked.filter({ hasText: providerName })).toHaveCount(1)
    await expect(page.getByRole('button', { name: `Link ${providerName}`, exact: true })).toHaveCount(0)

    // Signing in through the provider now opens the same account, though the provider knows another address.
    await signOut(page)
    await page.getByRole('button', { name: `Continue with ${providerName}` }).click()
    await expectInAccount(page)
    await expect(page.getByTestId('account-email')).toContainText(account.email)

    // The password is still there, so the provider can go.
    await page.getByRole('button', { name: `Unlink ${providerName}` }).click()
    await expect(page.getByText(`${providerName} is no longer linked to your account.`)).toBeVisible()
    await expect(linked).toHaveCount(1)
    await expect(linked).toContainText('Email and password')
    await expect(page.getByRole('button', { name: `Link ${providerName}`, exact: true })).toBeVisible()

    // From now on the provider's sign-in is somebody else: a new user with the provider's address.
    await signOut(page)
    await page.getByRole('button', { name: `Continue with ${providerName}` }).click()
    await expectInAccount(page)
    await expect(page.getByTestId('account-email')).toContainText(providerEmail(login))
  })

  test('refuses to link a provider user who already has an account here, and says so', async ({ page }) => {
    const login = `alan${unique()}`
    await visit(page, '/en/sign-in')
    await page.getByRole('button', { name: `Continue with ${providerName}` }).click()
    await signInAtProvider(page, login)
    await expectInAccount(page)
    await signOut(page)

    // Another person on this browser; the provider still has the first one signed in.
    await signUpWithPassword(page)
    await page.getByRole('button', { name: `Link ${providerName}`, exact: true }).click()
    await expect(page).toHaveURL(/\/en\/console\/account\?oauth=failed&error=account_already_linked_to_different_user/)
    await expect(page.getByRole('alert')).toHaveText('That account is already linked to another user of this site.')
    await expect(page.getByTestId('linked-accounts').getByRole('listitem')).toHaveCount(1)
  })

  test('a sign-in cancelled at the provider comes back to the sign-in page with a translated message', async ({
    page,
  }) => {
    await visit(page, '/zh/sign-in?redirect=%2Fzh%2Fconsole%2Faccount')
    await page.getByRole('button', { name: `使用 ${providerName} 继续` }).click()
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
    await page.getByRole('link', { name: '[ Cancel ]' }).click()
    await expect(page).toHaveURL(/\/zh\/sign-in\?redirect=%2Fzh%2Fconsole%2Faccount&oauth=failed&error=access_denied/)
    await expect(page.getByRole('alert')).toHaveText('已在服务提供方取消登录。')
  })

  test('the sign-up page offers the provider too, and nothing loads Google one-tap while it is off', async ({
    page,
  }) => {
    const googleRequests: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('accounts.google.com')) googleRequests.push(request.url())
    })
    await visit(page, '/en/sign-in')
    await expect(page.getByRole('button', { name: `Continue with ${providerName}` })).toBeVisible()
    // GitHub and Google have no credentials in this environment, so they are not offered.
    await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveCount(0)
    await visit(page, '/en/sign-up')
    await expect(page.getByRole('button', { name: `Continue with ${providerName}` })).toBeVisible()
    await expect(page.locator('script[src*="accounts.google.com"]')).toHaveCount(0)
    expect(googleRequests).toEqual([])
  })
})
