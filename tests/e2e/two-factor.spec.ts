import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { signOut, signUpNewAccount as signUpWithForm, uniqueId } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'
import { waitForEmail } from './mailbox'

interface Account {
  email: string
  username: string
  password: string
}

async function signUpNewAccount(page: Page): Promise<Account> {
  const id = uniqueId()
  const account = { email: `katherine${id}@example.com`, username: `kj${id}`, password: 'orbit-1962' }
  await signUpWithForm(page, { name: 'Katherine Johnson', ...account })
  return account
}

/** The account section's one form (enable, confirm, or manage, depending on the state). */
const twoFactorForm = (page: Page) => page.getByRole('form', { name: 'Two-factor authentication' })

/** Turns two-factor on from the account page, as an authenticator app would; returns the app and the backup codes. */
async function enableTwoFactor(page: Page, password: string) {
  await twoFactorForm(page).getByLabel('Password, to confirm').fill(password)
  await twoFactorForm(page).getByRole('button', { name: 'Turn on two-factor authentication' }).click()
  await expect(page.getByRole('img', { name: 'QR code to add this account to your authenticator app' })).toBeVisible()
  const secret = (await page.getByTestId('twofa-secret').textContent())?.replace(/\s/g, '') ?? ''
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
  const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 })
  return { app, confirm: () => confirmSetup(page, app) }
}

async function confirmSetup(page: Page, app: TOTP): Promise<string[]> {
  await twoFactorForm(page).getByLabel('6-digit code from the app').fill(app.generate())
  await twoFactorForm(page).getByRole('button', { name: 'Verify and turn on' }).click()
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible()
  const codes = await page.getByTestId('twofa-backup-codes').getByRole('listitem').allTextContents()
  expect(codes).toHaveLength(10)
  return codes
}

/** A 6-digit code the app does not show now (nor in the neighbouring periods). */
function wrongCode(app: TOTP): string {
  return String((Number(app.generate()) + 500_000) % 1_000_000).padStart(6, '0')
}

async function signInWithPassword(page: Page, identifier: string, password: string, lang: 'en' | 'zh' = 'en') {
  await visit(page, `/${lang}/sign-in`)
  await page.getByLabel(lang === 'en' ? 'Email or username' : '邮箱或用户名', { exact: true }).fill(identifier)
  await page.getByLabel(lang === 'en' ? 'Password' : '密码', { exact: true }).fill(password)
  await page.getByRole('button', { name: lang === 'en' ? 'Sign in' : '登录', exact: true }).click()
}

/** Where a sign-in lands without a `redirect`: the console (which opens its first section). */
const inConsole = (lang: 'en' | 'zh') => new RegExp(`/${lang}/console(/account)?$`)

const challengeForm = (page: Page) => page.getByRole('form', { name: 'Two-factor authentication' })
/** The toast of a refused code (its wording comes from the translated Better Auth error). */
const codeErrorToast = (page: Page) =>
  page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: /code|码/i })

test.describe('two-factor authentication', () => {
  // The browser reports the refused calls the error cases provoke.
  test.use({ expectedConsoleErrors: documentStatusError(400, /status of 401/) })
  // Each test walks through several sign-ins, each a full page load.
  test.describe.configure({ timeout: 180_000 })

  test('turns on with an authenticator app, then asks for its code, a backup code or an emailed code', async ({
    page,
  }) => {
    const account = await signUpNewAccount(page)
    await expect(page.getByTestId('twofa-state')).toContainText('Off')

    // The password is asked again, and checked.
    await twoFactorForm(page).getByRole('button', { name: 'Turn on two-factor authentication' }).click()
    await expect(twoFactorForm(page).getByText('Password is required')).toBeVisible()
    await twoFactorForm(page).getByLabel('Password, to confirm').fill('not-my-password1')
    await twoFactorForm(page).getByRole('button', { name: 'Turn on two-factor authentication' }).click()
    await expect(page.getByText('The current password is not correct.')).toBeVisible()

    const { app } = await enableTwoFactor(page, account.password)
    // A code that is not the app's does not turn it on.
    await twoFactorForm(page).getByLabel('6-digit code from the app').fill('12ab')
    await twoFactorForm(page).getByRole('button', { name: 'Verify and turn on' }).click()
    await expect(twoFactorForm(page).getByText('Enter the 6 digits of the code.')).toBeVisible()
    await twoFactorForm(page).getByLabel('6-digit code from the app').fill(wrongCode(app))
    await twoFactorForm(page).getByRole('button', { name: 'Verify and turn on' }).click()
    await expect(codeErrorToast(page)).toBeVisible()
    await expect(page.getByTestId('twofa-state')).toContainText('Off')

    const backupCodes = await confirmSetup(page, app)
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Download as .txt' }).click()
    const file = readFileSync(await (await download).path(), 'utf8')
    for (const code of backupCodes) expect(file).toContain(code)
    await page.getByRole('button', { name: 'I have saved them' }).click()
    // Shown once: gone from the page, and not shown again after a reload.
    await expect(page.getByTestId('twofa-backup-codes')).toHaveCount(0)
    await page.reload()
    await expect(page.getByTestId('twofa-state')).toContainText('On')
    await expect(page.getByTestId('twofa-backup-codes')).toHaveCount(0)

    // The password alone no longer signs in: the challenge page asks for the app's code.
    await signOut(page)
    await signInWithPassword(page, account.email, account.password)
    await expect(page).toHaveURL(/\/en\/two-factor$/)
    await visit(page, '/en/console/account')
    await expect(page).toHaveURL(/\/en\/sign-in\?redirect=%2Fen%2Fconsole%2Faccount$/)
    // Signing in from there keeps the way back to the page asked for.
    await page.getByLabel('Email or username', { exact: true }).fill(account.email)
    await page.getByLabel('Password', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL(/\/en\/two-factor\?redirect=%2Fen%2Fconsole%2Faccount$/)
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(challengeForm(page).getByText('Enter the 6 digits of the code.')).toBeVisible()
    await challengeForm(page).getByLabel('Authentication code').fill(wrongCode(app))
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(codeErrorToast(page)).toBeVisible()
    await challengeForm(page).getByLabel('Authentication code').fill(app.generate())
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(/\/en\/console\/account$/)

    // A backup code works once, by username too.
    const [firstBackupCode] = backupCodes
    await signOut(page)
    await signInWithPassword(page, account.username, account.password)
    await expect(page).toHaveURL(/\/en\/two-factor$/)
    await page.getByRole('button', { name: 'Use a backup code' }).click()
    await challengeForm(page).getByLabel('Backup code').fill('nope')
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(challengeForm(page).getByText('Enter a backup code, like abcde-12345.')).toBeVisible()
    await challengeForm(page)
      .getByLabel('Backup code')
      .fill(firstBackupCode ?? '')
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(inConsole('en'))

    await signOut(page)
    await signInWithPassword(page, account.email, account.password)
    await expect(page).toHaveURL(/\/en\/two-factor$/)
    await page.getByRole('button', { name: 'Use a backup code' }).click()
    await challengeForm(page)
      .getByLabel('Backup code')
      .fill(firstBackupCode ?? '')
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(codeErrorToast(page)).toBeVisible()
    await expect(page).toHaveURL(/\/en\/two-factor$/)

    // An emailed code works too; trusting the device skips the challenge next time.
    await page.getByRole('button', { name: 'Email me a code instead' }).click()
    await expect(page.getByText('A code is on its way to your email address.')).toBeVisible()
    const email = await waitForEmail(account.email, { subject: /two-factor code/ })
    const emailedCode = /\b(\d{6})\b/.exec(email.text)?.[1] ?? ''
    await challengeForm(page).getByLabel('Code from the email').fill(emailedCode)
    await challengeForm(page).getByLabel('Trust this device for 30 days').check()
    await challengeForm(page).getByRole('button', { name: 'Verify' }).click()
    await expect(page).toHaveURL(inConsole('en'))

    await signOut(page)
    await signInWithPassword(page, account.email, account.password)
    await expect(page).toHaveURL(inConsole('en'))
  })

  test('new backup codes replace the old ones, and turning it off needs the password', async ({ page, browser }) => {
    const account = await signUpNewAccount(page)
    const { confirm } = await enableTwoFactor(page, account.password)
    const oldCodes = await confirm()
    await page.getByRole('button', { name: 'I have saved them' }).click()

    await twoFactorForm(page).getByLabel('Password, to confirm').fill(account.password)
    await twoFactorForm(page).getByRole('button', { name: 'Regenerate backup codes' }).click()
    await expect(page.getByText('New backup codes are ready; the old ones no longer work.')).toBeVisible()
    const newCodes = await page.getByTestId('twofa-backup-codes').getByRole('listitem').allTextContents()
    expect(newCodes).toHaveLength(10)
    expect(newCodes.filter((code) => oldCodes.includes(code))).toEqual([])
    await page.getByRole('button', { name: 'I have saved them' }).click()

    // In another browser, in Chinese: the challenge's messages are translated, and only a new code works.
    const other = await browser.newContext()
    const otherPage = await other.newPage()
    await signInWithPassword(otherPage, account.email, account.password, 'zh')
    await expect(otherPage).toHaveURL(/\/zh\/two-factor$/)
    const form = otherPage.getByRole('form', { name: '两步验证' })
    await form.getByRole('button', { name: '验证' }).click()
    await expect(form.getByText('请输入 6 位数字验证码。')).toBeVisible()
    await otherPage.getByRole('button', { name: '使用备用码' }).click()
    await form.getByLabel('备用码').fill('x')
    await form.getByRole('button', { name: '验证' }).click()
    await expect(form.getByText('请输入备用码，格式如 abcde-12345。')).toBeVisible()
    await form.getByLabel('备用码').fill(oldCodes[0] ?? '')
    await form.getByRole('button', { name: '验证' }).click()
    await expect(codeErrorToast(otherPage)).toBeVisible()
    // Backup codes are accepted without their dash.
    await form.getByLabel('备用码').fill((newCodes[0] ?? '').replace('-', ''))
    await form.getByRole('button', { name: '验证' }).click()
    await expect(otherPage).toHaveURL(inConsole('zh'))
    await other.close()

    await twoFactorForm(page).getByRole('button', { name: 'Turn off two-factor authentication' }).click()
    await expect(twoFactorForm(page).getByText('Password is required')).toBeVisible()
    await twoFactorForm(page).getByLabel('Password, to confirm').fill('not-my-password1')
    await twoFactorForm(page).getByRole('button', { name: 'Turn off two-factor authentication' }).click()
    await expect(page.getByText('The current password is not correct.')).toBeVisible()
    await expect(page.getByTestId('twofa-state')).toContainText('On')
    await twoFactorForm(page).getByLabel('Password, to confirm').fill(account.password)
    await twoFactorForm(page).getByRole('button', { name: 'Turn off two-factor authentication' }).click()
    await expect(page.getByText('Two-factor authentication is off.')).toBeVisible()
    await expect(page.getByTestId('twofa-state')).toContainText('Off')

    // The password alone signs in again.
    await signOut(page)
    await signInWithPassword(page, account.email, account.password)
    await expect(page).toHaveURL(inConsole('en'))
  })

  test('the challenge page without a pending sign-in explains and links to sign-in', async ({ page }) => {
    await visit(page, '/en/two-factor?redirect=%2Fen%2Fconsole%2Faccount')
    await expect(page.getByRole('alert').filter({ hasText: 'No sign-in is waiting for a code here' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute(
      'href',
      '/en/sign-in?redirect=%2Fen%2Fconsole%2Faccount',
    )
    await visit(page, '/zh/two-factor')
    await expect(page.getByRole('alert').filter({ hasText: '这里没有等待验证码的登录' })).toBeVisible()
    await expect(page.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/zh/sign-in')
  })
})
