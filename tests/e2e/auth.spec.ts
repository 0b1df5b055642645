import type { Page } from '@playwright/test'
import { landInConsole, landInConsoleThenOpenAccount, waitForAccountPage } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'
import { waitForEmail } from './mailbox.ts'

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`

async function signUp(page: Page, account: { name: string; email: string; username?: string; password: string }) {
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  if (account.username) await page.getByLabel('Username (optional)', { exact: true }).fill(account.username)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
}

test.describe('sign-up and sign-in forms', () => {
  test('show every validation message, and nothing is sent while a field is wrong', async ({ page }) => {
    let authRequests = 0
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/sign-up')) authRequests++
    })
    await visit(page, '/en/sign-up')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByTestId('error-name')).toHaveText('Required')
    await expect(page.getByTestId('error-email')).toHaveText('Email is required')
    await expect(page.getByTestId('error-password')).toHaveText('Password is required')

    await page.getByLabel('Email', { exact: true }).fill('ada@')
    await page.getByLabel('Password', { exact: true }).fill('short1')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByTestId('error-email')).toHaveText('Email is invalid')
    await expect(page.getByTestId('error-password')).toHaveText('Password must be at least 8 characters')
    await page.getByLabel('Password', { exact: true }).fill(`a1${'x'.repeat(127)}`)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByTestId('error-password')).toHaveText('Password must be at most 128 characters')
    await page.getByLabel('Password', { exact: true }).fill('onlyletters')
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page.getByTestId('error-password')).toHaveText(
      'Password must contain at least one letter and one number',
    )
    expect(authRequests).toBe(0)
  })

  test('speak Chinese on /zh', async ({ page }) => {
    await visit(page, '/zh/sign-in')
    await page.getByRole('button', { name: '登录', exact: true }).click()
    await expect(page.getByTestId('error-identifier')).toHaveText('请输入邮箱')
    await expect(page.getByTestId('error-password')).toHaveText('请输入密码')
    await visit(page, '/zh/sign-up')
    await page.getByLabel('密码', { exact: true }).fill('abc')
    await page.getByRole('button', { name: '创建账号' }).click()
    await expect(page.getByTestId('error-name')).toHaveText('必填')
    await expect(page.getByTestId('error-password')).toHaveText('密码至少需要 8 个字符')
  })
})

test.describe
  .serial('an account from sign-up to sign-out', () => {
    // The browser reports the refused calls these tests provoke (422 duplicate account, 401 wrong password).
    test.use({ expectedConsoleErrors: documentStatusError(401, /status of 422/) })
    const id = unique()
    const account = {
      name: 'Ada Lovelace',
      email: `ada${id}@example.com`,
      username: `ada${id}`,
      password: 'engine1843',
    }

    test('signing up lands in the console with the new profile', async ({ page }) => {
      await visit(page, '/en/sign-up')
      await signUp(page, account)
      await landInConsoleThenOpenAccount(page)
      await expect(page.getByTestId('account-name')).toHaveText(account.name)
      await expect(page.getByTestId('account-email')).toContainText(account.email)
      await expect(page.getByTestId('account-username')).toHaveText(`@${account.username}`)
      const cookies = await page.context().cookies()
      const session = cookies.find((cookie) => cookie.name.includes('session_token'))
      expect(session?.httpOnly).toBe(true)
      expect(session?.sameSite).toBe('Lax')
    })

    test('the same email cannot sign up twice', async ({ page }) => {
      await visit(page, '/en/sign-up')
      await signUp(page, { ...account, username: undefined })
      await expect(page.getByText('An account with this email already exists', { exact: false })).toBeVisible()
      await expect(page).toHaveURL(/\/en\/sign-up$/)
    })

    test('a wrong password is refused with a translated message', async ({ page }) => {
      await visit(page, '/zh/sign-in')
      await page.getByLabel('邮箱或用户名', { exact: true }).fill(account.email)
      await page.getByLabel('密码', { exact: true }).fill('wrong-password1')
      await page.getByRole('button', { name: '登录', exact: true }).click()
      await expect(page.getByText('邮箱或密码错误')).toBeVisible()
    })

    test('the console sends a signed-out visitor to sign-in and back again, by username', async ({ page }) => {
      await visit(page, '/en/console/account')
      await expect(page).toHaveURL(/\/en\/sign-in\?redirect=%2Fen%2Fconsole%2Faccount$/)
      await page.getByLabel('Email or username', { exact: true }).fill(account.username)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page).toHaveURL(/\/en\/console\/account$/)
      await expect(page.getByTestId('console-user')).toContainText(account.name)
      // The page settles first (its sections load after the client-side navigation), as elsewhere in the suite.
      await waitForAccountPage(page)

      await page.getByTestId('console-user').click()
      await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click()
      await expect(page).toHaveURL(/\/en\/sign-in$/)
      await visit(page, '/en/console')
      await expect(page).toHaveURL(/\/en\/sign-in\?redirect=/)
    })

    test('a redirect to another site is ignored after signing in', async ({ page }) => {
      await visit(page, `/en/sign-in?redirect=${encodeURIComponent('//evil.example/steal')}`)
      await page.getByLabel('Email or username', { exact: true }).fill(account.email)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await landInConsole(page)
    })
  })

test.describe('the auth API', () => {
  test.use({ expectedConsoleErrors: documentStatusError(403) })

  test('refuses a sign-in posted from another origin', async ({ request }) => {
    const response = await request.post('/api/auth/sign-in/email', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      data: { email: 'someone@example.com', password: 'whatever1' },
    })
    expect(response.status()).toBe(403)
  })
})

test.describe
  .serial('emails: verification and password reset', () => {
    test.use({ expectedConsoleErrors: documentStatusError(401) })
    const id = unique()
    const account = { name: '周 Zhou', email: `zhou${id}@example.com`, password: 'first-pass1' }

    test('signing up sends a verification email in the page language; its link verifies the address', async ({
      page,
    }) => {
      await visit(page, '/zh/sign-up')
      await page.getByLabel('姓名', { exact: true }).fill(account.name)
      await page.getByLabel('邮箱', { exact: true }).fill(account.email)
      await page.getByLabel('密码', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: '创建账号' }).click()
      await landInConsoleThenOpenAccount(page, 'zh')
      await expect(page.getByTestId('verify-email-banner')).toBeVisible()
      await expect(page.getByTestId('account-email')).toContainText('未验证')

      const email = await waitForEmail(account.email)
      expect(email.subject).toBe('请确认你在 Hatch 的邮箱')
      expect(email.text).toContain('周 Zhou，你好：')
      const link = email.links.find((url) => url.includes('/api/auth/verify-email'))
      expect(link).toBeDefined()
      await page.goto(link ?? '')
      await expect(page).toHaveURL(/\/zh\/verify-email/)
      await expect(page.getByTestId('verify-email-status')).toHaveText('你的邮箱已验证，谢谢！')
      await visit(page, '/zh/console/account')
      await expect(page.getByTestId('account-email')).toContainText('已验证')
      await expect(page.getByTestId('verify-email-banner')).toHaveCount(0)
    })

    test('a forgotten password is reset from the emailed link, and only the new one works', async ({ page }) => {
      // Forms post: a password must never land in a URL (history, logs), even if a form is sent before hydration.
      const requestedUrls: string[] = []
      page.on('request', (request) => requestedUrls.push(request.url()))
      await visit(page, '/en/forgot-password')
      await page.getByLabel('Email', { exact: true }).fill(account.email)
      await page.getByRole('button', { name: 'Send the link' }).click()
      await expect(page.getByRole('status')).toContainText('a link to reset the password is on its way')

      const email = await waitForEmail(account.email, { subject: /Reset your Hatch password/ })
      const link = email.links.find((url) => url.includes('/api/auth/reset-password/'))
      await page.goto(link ?? '')
      await expect(page).toHaveURL(/\/en\/reset-password\?token=/)
      await page.getByLabel('New password', { exact: true }).fill('nopedigits')
      await page.getByRole('button', { name: 'Save the new password' }).click()
      await expect(page.getByTestId('error-password')).toHaveText(
        'Password must contain at least one letter and one number',
      )
      await page.getByLabel('New password', { exact: true }).fill('second-pass2')
      await page.getByRole('button', { name: 'Save the new password' }).click()
      await expect(page).toHaveURL(/\/en\/sign-in$/)
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })

      await page.getByLabel('Email or username', { exact: true }).fill(account.email)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page.getByText('Invalid email or password')).toBeVisible()
      await page.getByLabel('Password', { exact: true }).fill('second-pass2')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await landInConsole(page)
      const passwords = [account.password, 'nopedigits', 'second-pass2']
      expect(requestedUrls.filter((url) => passwords.some((password) => url.includes(password)))).toEqual([])
    })

    test('a reset page without a valid token says so', async ({ page }) => {
      await visit(page, '/en/reset-password?error=INVALID_TOKEN')
      await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired. Ask for a new one.')
    })
  })

test.describe('before the page scripts run', () => {
  test.use({ expectedConsoleErrors: /Failed to load resource/ })

  test('a sign-in form sent early posts, so the password never lands in the address bar or a log', async ({ page }) => {
    // No scripts at all: the form is the server-rendered HTML, as it is for a moment on a slow connection.
    await page.route('**/assets/*.js', (route) => route.abort())
    await page.goto('/en/sign-in')
    await page.getByLabel('Email or username', { exact: true }).fill('early@example.com')
    await page.getByLabel('Password', { exact: true }).fill('early-secret1')
    const submitted = page.waitForRequest(
      (request) => request.url().includes('/en/sign-in') && request.isNavigationRequest(),
    )
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    const request = await submitted
    expect(request.method()).toBe('POST')
    expect(request.url()).not.toContain('early-secret1')
    await page.waitForLoadState()
    expect(page.url()).not.toContain('early-secret1')
  })
})
