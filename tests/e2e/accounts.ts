import type { Page } from '@playwright/test'
import { appAdmin } from './app-admin'
import { expect, visit } from './fixtures'

/** Unique per call, so tests running in parallel never share an email address or username. */
export const uniqueId = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`

export interface TestAccount {
  name: string
  email: string
  password: string
  username?: string
}

/** A fresh account's details (nothing is created yet). */
export function newAccount(details: Partial<TestAccount> = {}): TestAccount {
  const id = uniqueId()
  return { name: 'Grace Hopper', email: `grace${id}@example.com`, password: 'cobol-1959', ...details }
}

/** Signs up through the English form and waits for the console's account page. */
export async function signUpNewAccount(page: Page, account: TestAccount = newAccount()): Promise<TestAccount> {
  await visit(page, '/en/sign-up')
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  if (account.username) await page.getByLabel('Username (optional)', { exact: true }).fill(account.username)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await landInConsoleThenOpenAccount(page)
  return account
}

/** Signing in or up lands on the console's Dashboard (of the account's workspace). */
export async function landInConsole(page: Page, lang: 'en' | 'zh' = 'en') {
  await expect(page).toHaveURL(new RegExp(`^http://localhost:\\d+/${lang}/console$`))
}

/** Lands on the console, then opens the Account page the account tests work on. */
export async function landInConsoleThenOpenAccount(page: Page, lang: 'en' | 'zh' = 'en') {
  await landInConsole(page, lang)
  await visit(page, `/${lang}/console/account`)
  await waitForAccountPage(page)
}

/**
 * Waits until the account page is interactive and every section has loaded: a section that turns from "Loading…" into
 * its list moves the ones below it, and a click aimed before the move lands elsewhere.
 */
export async function waitForAccountPage(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await expect(page.getByText(/^Loading.*…$/)).toHaveCount(0)
}

/** Signs out from the console's user menu and waits for the sign-in page to be interactive. */
export async function signOut(page: Page) {
  await page.getByTestId('console-user').click()
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click()
  await expect(page).toHaveURL(/\/en\/sign-in$/)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

/** Signs in as the app admin through the sign-in form, in `lang`, and waits for the console. */
export async function signInAsAppAdmin(page: Page, lang: 'en' | 'zh' = 'en') {
  await visit(page, `/${lang}/sign-in`)
  await page.getByLabel(lang === 'en' ? 'Email or username' : '邮箱或用户名', { exact: true }).fill(appAdmin.email)
  await page.getByLabel(lang === 'en' ? 'Password' : '密码', { exact: true }).fill(appAdmin.password)
  await page.getByRole('button', { name: lang === 'en' ? 'Sign in' : '登录', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/${lang}/console$`))
}
