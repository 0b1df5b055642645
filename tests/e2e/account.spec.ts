import type { Browser } from '@playwright/test'
import { landInConsoleThenOpenAccount, signUpNewAccount } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

async function signIn(browser: Browser, account: { email: string; password: string }, rememberMe = true) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await visit(page, '/en/sign-in')
  await page.getByLabel('Email or username', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  if (!rememberMe) await page.getByLabel('Remember me').uncheck()
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await landInConsoleThenOpenAccount(page)
  return { context, page }
}

test.describe('the account area', () => {
  // The browser reports the refused calls the error cases provoke.
  test.use({ expectedConsoleErrors: documentStatusError(400, /status of 401/) })

  test('edits the profile; the picture is uploaded, never typed in as an address', async ({ page }) => {
    await signUpNewAccount(page)
    const profile = page.getByRole('form', { name: 'Profile' })
    await expect(profile.getByRole('textbox')).toHaveCount(2)
    const pictureControl = page.getByRole('group', { name: 'Profile picture' })
    await expect(pictureControl).toContainText('Upload a picture')
    await expect(pictureControl.getByRole('button', { name: 'Remove picture' })).toHaveCount(0)

    await profile.getByLabel('Name', { exact: true }).fill('Rear Admiral Hopper')
    await profile.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Saved.')).toBeVisible()
    await expect(page.getByTestId('account-name')).toHaveText('Rear Admiral Hopper')
    await expect(page.getByTestId('console-user')).toContainText('RH')
  })

  test('changes the password only with the current one', async ({ page, browser }) => {
    const account = await signUpNewAccount(page)
    const form = page.getByRole('form', { name: 'Password' })
    await form.getByLabel('Current password').fill('not-the-password1')
    await form.getByLabel('New password').fill('flow-matic-1957')
    await form.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('The current password is not correct.')).toBeVisible()

    await form.getByLabel('Current password').fill(account.password)
    await form.getByRole('button', { name: 'Change password' }).click()
    await expect(page.getByText('Your password has been changed.')).toBeVisible()
    const { context } = await signIn(browser, { email: account.email, password: 'flow-matic-1957' })
    await context.close()
  })

  test('lists sessions, and signing out the other sessions signs out the other browser', async ({ page, browser }) => {
    const account = await signUpNewAccount(page)
    const other = await signIn(browser, account)

    await page.reload()
    const sessions = page.getByTestId('sessions-list').getByTestId('session-row')
    await expect(sessions).toHaveCount(2)
    await expect(page.getByTestId('sessions-list').locator('[data-current="true"]')).toContainText('This device')

    await page.getByRole('button', { name: 'Sign out of other sessions' }).click()
    await expect(page.getByText('Your other sessions are signed out.')).toBeVisible()
    await expect(sessions).toHaveCount(1)

    // Signed out at its first step after its session copy lapses (SESSION_CACHE_SECONDS, 5 s in this suite).
    await expect(async () => {
      await visit(other.page, '/en/console/account')
      await expect(other.page).toHaveURL(/\/en\/sign-in\?redirect=/, { timeout: 1_000 })
    }).toPass({ timeout: 20_000 })
    await other.context.close()
    // This browser is still signed in.
    await visit(page, '/en/console/account')
    await expect(page).toHaveURL(/\/en\/console\/account$/)
  })

  test('deletes the account only with the password and the warning acknowledged', async ({ page, browser }) => {
    const account = await signUpNewAccount(page)
    const form = page.getByRole('form', { name: 'Delete account' })
    await form.getByRole('button', { name: 'Delete my account' }).click()
    await expect(form.getByTestId('error-password')).toHaveText('Password is required')
    await expect(form.getByTestId('error-confirmed')).toHaveText('Required')

    await form.getByLabel('Password, to confirm').fill('not-the-password1')
    await form.getByLabel('I understand that this cannot be undone').check()
    await form.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page.getByText('The current password is not correct.')).toBeVisible()
    await expect(page).toHaveURL(/\/en\/console\/account$/)

    await form.getByLabel('Password, to confirm').fill(account.password)
    await form.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page).toHaveURL(/\/en\/$/)
    // The account is gone: its credentials no longer sign in.
    const context = await browser.newContext()
    const other = await context.newPage()
    await visit(other, '/en/sign-in')
    await other.getByLabel('Email or username', { exact: true }).fill(account.email)
    await other.getByLabel('Password', { exact: true }).fill(account.password)
    await other.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(other.getByText('Invalid email or password')).toBeVisible()
    await context.close()
  })

  test('without Remember me, the session ends with the browser', async ({ page, browser }) => {
    const account = await signUpNewAccount(page)
    const { context } = await signIn(browser, account, false)
    // The session cookie and the multi-session copy of it (which could bring the session back) are both session-only.
    const sessionCookies = (await context.cookies()).filter((cookie) => cookie.name.includes('session_token'))
    expect(sessionCookies.map((cookie) => cookie.name.replace(/-[a-z0-9]+$/, '-…')).sort()).toEqual([
      'hatch.session_token',
      'hatch.session_token_multi-…',
    ])
    for (const cookie of sessionCookies) expect(cookie.expires, cookie.name).toBe(-1)
    await context.close()
  })
})
