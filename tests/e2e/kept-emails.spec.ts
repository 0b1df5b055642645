import type { Page } from '@playwright/test'
import { newAccount, type TestAccount } from './accounts'
import { expect, test, visit } from './fixtures'
import { type SecondServer, startSecondServer } from './second-server'

// A server as a newcomer runs it: no SMTP_URL, so every email is kept, and its first account is the app admin, who
// reads them in Console → System instead of a mailbox (the main end-to-end server delivers to a real SMTP server).
const port = Number(process.env.E2E_PORT ?? 3211) + 31
const origin = `http://localhost:${port}`
let server: SecondServer | undefined
const admin = newAccount({ name: 'Ivy Inbox' })

test.describe.configure({ mode: 'serial' })
// Playwright evaluates its own helpers in every frame, and Chromium reports each try in the sandboxed email frame,
// which may run no script (microsoft/playwright#33343); the email itself holds none.
test.use({
  expectedConsoleErrors: /Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/,
})

test.beforeAll(async () => {
  server = await startSecondServer({ port, unset: ['SMTP_URL'] })
})

test.afterAll(async () => {
  await server?.stop()
})

async function signUp(page: Page, account: TestAccount, lang: 'en' | 'zh') {
  await visit(page, `${origin}/${lang}/sign-up`)
  await page.getByLabel(lang === 'en' ? 'Name' : '姓名', { exact: true }).fill(account.name)
  await page.getByLabel(lang === 'en' ? 'Email' : '邮箱', { exact: true }).fill(account.email)
  await page.getByLabel(lang === 'en' ? 'Password' : '密码', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: lang === 'en' ? 'Create account' : '创建账号' }).click()
  await expect(page).toHaveURL(`${origin}/${lang}/console`)
}

test('(en) the app admin opens their own kept verification email, and its link verifies the address', async ({
  page,
}) => {
  await signUp(page, admin, 'en')
  await visit(page, `${origin}/en/console/system`)
  const kept = page.getByRole('region', { name: 'Kept emails' })
  await expect(kept).toContainText('never sent later')
  const item = kept.getByRole('link', { name: `Open the email to ${admin.email}: Confirm your email for Hatch` })
  await item.click()

  const viewer = page.getByTestId('kept-email')
  await expect(page).toHaveURL(/[?&]email=\d+/)
  await expect(viewer.getByRole('heading', { name: 'Confirm your email for Hatch' })).toBeVisible()
  await expect(viewer.getByTestId('kept-email-headers')).toContainText(admin.email)
  // Drawn where its scripts cannot run and it has no origin of its own: a kept email never acts as this site.
  await expect(viewer.getByTestId('kept-email-html')).toHaveAttribute(
    'sandbox',
    'allow-popups allow-popups-to-escape-sandbox',
  )
  const email = viewer.frameLocator('[data-testid="kept-email-html"]')
  await expect(email.getByText(`Hello ${admin.name},`)).toBeVisible()

  await viewer.getByRole('tab', { name: 'Text' }).click()
  await expect(viewer.getByTestId('kept-email-text')).toContainText('/api/auth/verify-email?token=')
  await viewer.getByRole('tab', { name: 'HTML' }).click()

  // The email's button opens the site in a new tab, as a mail client would, never inside the sandboxed frame.
  const opened = page.waitForEvent('popup')
  await email.getByRole('link', { name: 'Confirm email' }).click()
  const tab = await opened
  await expect(tab).toHaveURL(/\/en\/verify-email/)
  await expect(tab.getByTestId('verify-email-status')).toHaveText('Your email address is verified. Thank you!')
  await tab.close()

  // Closing the viewer leaves the list; the address the server log prints opens the email again.
  await viewer.getByRole('button', { name: 'Close' }).click()
  await expect(viewer).toHaveCount(0)
  await expect(page).not.toHaveURL(/email=/)
  const href = (await item.getAttribute('href')) ?? ''
  const id = /email=(\d+)/.exec(href)?.[1]
  await visit(page, `${origin}/console/system?email=${id}`)
  await expect(page).toHaveURL(`${origin}/en/console/system?email=${id}`)
  await expect(viewer.getByRole('heading', { name: 'Confirm your email for Hatch' })).toBeVisible()
  await viewer.getByRole('button', { name: 'Close' }).click()

  await kept.getByRole('button', { name: 'Delete all' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete all' }).click()
  await expect(kept).toContainText('No email is kept.')
})

test('(zh) the app admin reads a newcomer’s Chinese email in the Chinese console, and its link works', async ({
  page,
  browser,
}) => {
  const newcomer = newAccount({ name: '周 Newcomer' })
  const elsewhere = await browser.newContext()
  await signUp(await elsewhere.newPage(), newcomer, 'zh')
  await elsewhere.close()

  await visit(page, `${origin}/zh/sign-in`)
  await page.getByLabel('邮箱或用户名', { exact: true }).fill(admin.email)
  await page.getByLabel('密码', { exact: true }).fill(admin.password)
  await page.getByRole('button', { name: '登录', exact: true }).click()
  await expect(page).toHaveURL(`${origin}/zh/console`)
  await visit(page, `${origin}/zh/console/system`)
  const kept = page.getByRole('region', { name: '保留的邮件' })
  await expect(kept).toContainText('不会再发送')
  await kept.getByRole('link', { name: `打开发给 ${newcomer.email} 的邮件：请确认你在 Hatch 的邮箱` }).click()

  const viewer = page.getByTestId('kept-email')
  await expect(viewer.getByTestId('kept-email-headers')).toContainText('收件人')
  await expect(viewer.getByTestId('kept-email-headers')).toContainText(newcomer.email)
  const email = viewer.frameLocator('[data-testid="kept-email-html"]')
  await expect(email.getByText('周 Newcomer，你好：')).toBeVisible()
  await viewer.getByRole('tab', { name: '纯文本' }).click()
  await expect(viewer.getByTestId('kept-email-text')).toContainText('确认邮箱: ')
  await viewer.getByRole('tab', { name: 'HTML' }).click()

  const opened = page.waitForEvent('popup')
  await email.getByRole('link', { name: '确认邮箱' }).click()
  const tab = await opened
  await expect(tab).toHaveURL(/\/zh\/verify-email/)
  await expect(tab.getByTestId('verify-email-status')).toHaveText('你的邮箱已验证，谢谢！')
})
