import type { Page } from '@playwright/test'
import { documentStatusError, expect, test, visit } from './fixtures'

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
    await page.getByRole('button', { name: '登录' }).click()
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
      await expect(page).toHaveURL(/\/en\/console\/account$/)
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
      await page.getByRole('button', { name: '登录' }).click()
      await expect(page.getByText('邮箱或密码错误')).toBeVisible()
    })

    test('the console sends a signed-out visitor to sign-in and back again, by username', async ({ page }) => {
      await visit(page, '/en/console/account')
      await expect(page).toHaveURL(/\/en\/sign-in\?redirect=%2Fen%2Fconsole%2Faccount$/)
      await page.getByLabel('Email or username', { exact: true }).fill(account.username)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page).toHaveURL(/\/en\/console\/account$/)
      await expect(page.getByTestId('console-user')).toContainText(account.name)

      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page).toHaveURL(/\/en\/sign-in$/)
      await visit(page, '/en/console')
      await expect(page).toHaveURL(/\/en\/sign-in\?redirect=/)
    })

    test('a redirect to another site is ignored after signing in', async ({ page }) => {
      await visit(page, `/en/sign-in?redirect=${encodeURIComponent('//evil.example/steal')}`)
      await page.getByLabel('Email or username', { exact: true }).fill(account.email)
      await page.getByLabel('Password', { exact: true }).fill(account.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/en\/console\/account$/)
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
