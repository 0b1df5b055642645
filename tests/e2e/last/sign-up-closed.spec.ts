import type { Page } from '@playwright/test'
import { appAdmin } from '../app-admin'
import { expect, test, visit } from '../fixtures'

// Closing sign-up would refuse every other test's new accounts, so this runs after them all (playwright.config.ts).

async function setSignUpOpen(page: Page, open: boolean) {
  await visit(page, '/en/console/configuration')
  const form = page.getByRole('form', { name: 'Configuration' })
  const box = form.getByLabel('Anyone may create an account')
  if (open) await box.check()
  else await box.uncheck()
  await form.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
}

test('an admin closes sign-up: visitors are told so, get no sign-up or guest offer, and the server refuses', async ({
  page,
  browser,
}) => {
  await visit(page, '/en/sign-in')
  await page.getByLabel('Email or username', { exact: true }).fill(appAdmin.email)
  await page.getByLabel('Password', { exact: true }).fill(appAdmin.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(/\/en\/console$/)

  await setSignUpOpen(page, false)
  const visitor = await browser.newContext()
  try {
    const theirPage = await visitor.newPage()
    await visit(theirPage, '/zh/sign-up')
    await expect(theirPage.getByRole('heading', { name: '注册已关闭' })).toBeVisible()
    await expect(theirPage.getByRole('button', { name: '创建账号' })).toHaveCount(0)
    await visit(theirPage, '/en/sign-in')
    await expect(theirPage.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
    await expect(theirPage.getByRole('link', { name: 'Create account', exact: true })).toHaveCount(0)
    await expect(theirPage.getByRole('button', { name: 'Continue as guest' })).toHaveCount(0)
    // A client that skips the page is refused too.
    const refused = await theirPage.request.post('/api/auth/sign-up/email', {
      data: { name: 'Sneaky', email: `sneaky${Date.now()}@example.com`, password: 'sneaky-pass1' },
      headers: { origin: new URL(theirPage.url()).origin },
    })
    expect(refused.status()).toBe(403)
    expect((await refused.json()).code).toBe('SIGN_UP_CLOSED')
  } finally {
    await visitor.close()
    await setSignUpOpen(page, true)
  }
  const reopened = await browser.newContext()
  const again = await reopened.newPage()
  await visit(again, '/en/sign-up')
  await expect(again.getByRole('button', { name: 'Create account' })).toBeVisible()
  await reopened.close()
})
