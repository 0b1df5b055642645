import type { Page } from '@playwright/test'
import { newAccount, signInAsAppAdmin, signUpNewAccount } from './accounts'
import { appAdmin } from './app-admin'
import { expect, test, visit } from './fixtures'

/** Signs in as the e2e server's app admin and opens Users. */
async function openUsersAsAdmin(page: Page, lang: 'en' | 'zh' = 'en') {
  await signInAsAppAdmin(page, lang)
  await visit(page, `/${lang}/console/users`)
}

/** Finds someone by the search box and opens their page. */
async function openUser(page: Page, search: string, name: string) {
  await page.getByRole('searchbox').fill(search)
  const row = page.getByTestId('user-row').filter({ hasText: name })
  await expect(page.getByTestId('user-row')).toHaveCount(1)
  await row.getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

test('an admin bans someone signed in elsewhere: they are signed out and told why when they sign in again', async ({
  page,
  browser,
}) => {
  test.slow() // one long story: two browsers, a sign-up, a ban, two sign-ins and a lifted ban
  const elsewhere = await browser.newContext()
  const theirPage = await elsewhere.newPage()
  const account = await signUpNewAccount(theirPage, newAccount({ name: 'Mallory Spammer' }))

  await openUsersAsAdmin(page)
  await openUser(page, account.email, account.name)
  await page.getByRole('button', { name: 'Ban', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `Ban ${account.name}` })
  await dialog.getByRole('button', { name: 'Ban account' }).click()
  await expect(dialog.getByTestId('error-reason')).toHaveText('Required')
  await dialog.getByLabel('Reason').fill('Links to a scam in every comment')
  await dialog.getByLabel('How long').selectOption({ label: 'For 7 days' })
  await dialog.getByRole('button', { name: 'Ban account' }).click()
  await expect(page.getByText(`${account.name} is banned and signed out everywhere`)).toBeVisible()
  await expect(page.getByTestId('ban-notice')).toContainText('Reason: Links to a scam in every comment')
  await expect(page.getByText('Not signed in anywhere.')).toBeVisible()

  // The other browser is signed out at its first step after its session copy lapses (SESSION_CACHE_SECONDS, 5 s in
  // this suite), and signing in again says why and until when.
  await expect(async () => {
    await visit(theirPage, '/en/console/account')
    await expect(theirPage).toHaveURL(/\/en\/sign-in/, { timeout: 1_000 })
  }).toPass({ timeout: 20_000 })
  await theirPage.getByLabel('Email or username', { exact: true }).fill(account.email)
  await theirPage.getByLabel('Password', { exact: true }).fill(account.password)
  await theirPage.getByRole('button', { name: 'Sign in', exact: true }).click()
  // On the page itself, above the form (not only in a passing toast).
  await expect(theirPage.getByRole('alert').filter({ hasText: 'This account is suspended until' })).toContainText(
    'Reason: Links to a scam in every comment',
  )
  await expect(theirPage).toHaveURL(/\/en\/sign-in/)

  // Lifted: they sign in again.
  await page.getByRole('button', { name: 'Lift ban' }).click()
  await expect(page.getByTestId('ban-notice')).toHaveCount(0)
  await expect(page.getByTestId('user-history')).toContainText('Ada Operator lifted the ban')
  await theirPage.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(theirPage).toHaveURL(/\/en\/console\/account$/)
  await elsewhere.close()
})

test('in Chinese, an admin creates a user, acts as them with a banner on every page, then stops', async ({ page }) => {
  test.slow() // one long story: a new user, impersonation across pages, and the history afterwards
  await openUsersAsAdmin(page, 'zh')
  const person = newAccount({ name: '李华' })
  await page.getByRole('button', { name: '新建用户' }).click()
  const dialog = page.getByRole('dialog', { name: '创建用户' })
  await dialog.getByLabel('名称').fill(person.name)
  await dialog.getByLabel('邮箱').fill(person.email)
  await dialog.getByLabel('密码（可选）').fill('short')
  await dialog.getByRole('button', { name: '创建用户' }).click()
  await expect(dialog.getByTestId('error-password')).toBeVisible()
  await dialog.getByLabel('密码（可选）').fill(person.password)
  await dialog.getByRole('button', { name: '创建用户' }).click()
  await expect(page.getByRole('heading', { level: 1, name: person.name })).toBeVisible()
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await expect(page.getByTestId('user-history')).toContainText('Ada Operator 创建了该账户（用户）')

  await page.getByRole('button', { name: '模拟登录' }).click()
  await expect(page).toHaveURL(/\/zh\/console$/)
  const banner = page.getByTestId('impersonation-banner')
  await expect(banner).toContainText(`您正在以 ${person.name}（${person.email}）的身份操作`)
  await expect(page.getByTestId('console-user')).toContainText(person.name)
  // Every page, the cached docs included.
  await visit(page, '/zh/docs')
  await expect(page.getByTestId('impersonation-banner')).toBeVisible()

  await page.getByTestId('impersonation-banner').getByRole('button', { name: '停止模拟' }).click()
  // Back on the page of the person the admin acted as.
  await expect(page).toHaveURL(/\/zh\/console\/users\/[^/?]+$/)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await expect(page.getByTestId('impersonation-banner')).toHaveCount(0)
  await expect(page.getByTestId('console-user')).toContainText(appAdmin.name)
  await expect(page.getByRole('heading', { level: 1, name: person.name })).toBeVisible()
  await expect(page.getByTestId('user-history')).toContainText('Ada Operator 开始以该用户身份操作')
  await expect(page.getByTestId('user-history')).toContainText('Ada Operator 停止以该用户身份操作')
  // Admins are never offered to be impersonated.
  await visit(page, '/zh/console/users')
  await openUser(page, appAdmin.email, appAdmin.name)
  await expect(page.getByRole('button', { name: '模拟登录' })).toHaveCount(0)
})
