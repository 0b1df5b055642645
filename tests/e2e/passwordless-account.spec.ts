import type { Page } from '@playwright/test'
import { landInConsoleThenOpenAccount, uniqueId } from './accounts'
import { expect, test, visit } from './fixtures'
import { waitForEmail } from './mailbox.ts'

/** Signs up by an emailed code: the account has no password. */
async function signUpByCode(page: Page): Promise<string> {
  const email = `nopass${uniqueId()}@example.com`
  await visit(page, '/en/sign-in')
  await page.getByRole('button', { name: 'Email me a code' }).click()
  const codeEmailForm = page.getByRole('form', { name: 'Email me a code' })
  await codeEmailForm.getByLabel('Email', { exact: true }).fill(email)
  await codeEmailForm.getByRole('button', { name: 'Send the code' }).click()
  const { subject } = await waitForEmail(email, { subject: /sign-in code/ })
  await page.getByLabel('6-digit code', { exact: true }).fill(/\b(\d{6})\b/.exec(subject)?.[1] ?? '')
  await page.getByRole('button', { name: 'Sign in with the code' }).click()
  await landInConsoleThenOpenAccount(page)
  return email
}

test.describe('an account without a password', () => {
  test('sets a first password from an emailed link, then signs in with it; two-factor waits for it', async ({
    page,
  }) => {
    const email = await signUpByCode(page)
    const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' })
    await expect(twoFactor.getByTestId('twofa-no-password')).toHaveText(
      'Two-factor authentication protects signing in with a password, and your account has no password yet. Set one in the Password section above, then turn this on.',
    )
    const password = page.getByTestId('password-none')
    await expect(password).toContainText('You sign in without a password.')
    await expect(page.getByLabel('Current password')).toHaveCount(0)
    await password.getByRole('button', { name: 'Email me a link to set a password' }).click()
    await expect(password.getByRole('status')).toHaveText(
      `We sent a link to ${email}. Open it within an hour to set your password, then sign in with it.`,
    )

    // An account without a password is asked to choose its first one, not to reset it.
    const message = await waitForEmail(email, { subject: /Choose your Hatch password/ })
    await visit(page, message.links.find((url) => url.includes('/api/auth/reset-password/')) ?? '')
    await page.getByLabel('New password', { exact: true }).fill('first-pass1')
    await page.getByRole('button', { name: 'Save the new password' }).click()
    await expect(page).toHaveURL(/\/en\/sign-in$/)
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await page.getByLabel('Email or username', { exact: true }).fill(email)
    await page.getByLabel('Password', { exact: true }).fill('first-pass1')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await landInConsoleThenOpenAccount(page)
    // Now it has one: the usual forms are back, and two-factor can be turned on.
    await expect(page.getByLabel('Current password')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Turn on two-factor authentication' })).toBeVisible()
  })

  test('is deleted on the strength of a recent sign-in, with the warning acknowledged', async ({ page }) => {
    await signUpByCode(page)
    const form = page.getByRole('form', { name: 'Delete account' })
    await expect(form.getByTestId('delete-needs-recent-sign-in')).toContainText(
      'Your account has no password, so deleting it needs a recent sign-in: it works within 10 minutes of signing in.',
    )
    await expect(form.getByLabel('Password, to confirm')).toHaveCount(0)
    await form.getByRole('button', { name: 'Delete my account' }).click()
    await expect(form.getByTestId('error-confirmed')).toHaveText('Required')
    await form.getByLabel('I understand that this cannot be undone').check()
    await form.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page).toHaveURL(/\/en\/$/)
    // Signed out for good: the console sends the visitor to sign in.
    await visit(page, '/en/console/account')
    await expect(page).toHaveURL(/\/en\/sign-in\?redirect=/)
  })
})
