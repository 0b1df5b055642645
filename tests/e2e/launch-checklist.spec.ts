import { createServer, type Server } from 'node:http'
import type { Page } from '@playwright/test'
import { newAccount, type TestAccount } from './accounts'
import { expect, test, visit } from './fixtures'
import { waitForEmail } from './mailbox'
import { type SecondServer, startSecondServer } from './second-server'

// "Before you launch" on Console → System, on two servers of the same build: one as a newcomer starts it (nothing
// set), and one configured for production in part (its secret, SMTP, social sign-in, a traces collector).
const basePort = Number(process.env.E2E_PORT ?? 3211)
const freshPort = basePort + 35
const configuredPort = basePort + 39
const collectorPort = basePort + 41
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526)

/** What any setting of the fresh server could have set: none of it is, whatever the test runner's environment holds. */
const launchVariables = [
  'SMTP_URL',
  'BETTER_AUTH_SECRET',
  'OAUTH_PROVIDERS',
  'GITHUB_CLIENT_ID',
  'GITHUB_CLIENT_SECRET',
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'POLAR_ACCESS_TOKEN',
  'POLAR_WEBHOOK_SECRET',
  'PADDLE_API_KEY',
  'PADDLE_WEBHOOK_SECRET',
  'PADDLE_CLIENT_TOKEN',
  'LEMONSQUEEZY_API_KEY',
  'LEMONSQUEEZY_WEBHOOK_SECRET',
  'LEMONSQUEEZY_STORE_ID',
  'LEMONSQUEEZY_VARIANTS',
]

async function signUpAdmin(page: Page, origin: string, account: TestAccount, lang: 'en' | 'zh') {
  await visit(page, `${origin}/${lang}/sign-up`)
  await page.getByLabel(lang === 'en' ? 'Name' : '姓名', { exact: true }).fill(account.name)
  await page.getByLabel(lang === 'en' ? 'Email' : '邮箱', { exact: true }).fill(account.email)
  await page.getByLabel(lang === 'en' ? 'Password' : '密码', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: lang === 'en' ? 'Create account' : '创建账号' }).click()
  await expect(page).toHaveURL(`${origin}/${lang}/console`)
}

test.describe('Before you launch, on a fresh install', () => {
  test.describe.configure({ mode: 'serial' })
  let server: SecondServer | undefined
  const origin = `http://localhost:${freshPort}`
  const admin = newAccount({ name: 'Lena Launch' })

  test.beforeAll(async () => {
    server = await startSecondServer({ port: freshPort, unset: launchVariables })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('(en) every item is to do, each with its docs page, and the test email is kept without SMTP', async ({
    page,
  }) => {
    await signUpAdmin(page, origin, admin, 'en')
    await visit(page, `${origin}/en/console/system`)
    const section = page.getByRole('region', { name: 'Before you launch' })
    const items = section.getByTestId('system-launch-checks').getByRole('listitem')
    await expect(items).toHaveCount(10)
    await expect(section.getByTestId('system-launch-count')).toHaveText('0 of 10 done')
    await expect(items.and(page.locator('[data-state="todo"]'))).toHaveCount(10)
    const backups = items.and(page.locator('[data-check="backups"]'))
    await expect(backups).toContainText('No backup yet. The schedule takes the first')
    await expect(backups.getByRole('link', { name: 'How: Backups, and the age of the latest' })).toHaveAttribute(
      'href',
      '/en/docs/database#backups',
    )
    await expect(items.and(page.locator('[data-check="payments"]'))).toContainText('built-in test checkout')
    await expect(items.and(page.locator('[data-check="identity"]'))).toContainText('Still called “Hatch”')

    await section.getByRole('button', { name: 'Send a test email' }).click()
    await expect(page.getByText(`The test email to ${admin.email} is kept, not sent`)).toBeVisible()
    const kept = page.getByRole('region', { name: 'Kept emails' })
    await expect(
      kept.getByRole('link', { name: `Open the email to ${admin.email}: A test email from Hatch` }),
    ).toBeVisible()
  })
})

test.describe('Before you launch, on a configured server', () => {
  test.describe.configure({ mode: 'serial' })
  let server: SecondServer | undefined
  let collector: Server | undefined
  const origin = `http://localhost:${configuredPort}`
  const admin = newAccount({ name: 'Mei Launch' })

  test.beforeAll(async () => {
    // A stand-in for an OpenTelemetry collector: it takes whatever traces come and keeps none.
    collector = createServer((request, response) => {
      request.resume()
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
    })
    await new Promise<void>((resolve) => collector?.listen(collectorPort, '127.0.0.1', resolve))
    const set = {
      BETTER_AUTH_SECRET: 'launch-checklist-secret-0123456789abcdef',
      // The main end-to-end server's SMTP server (tests/e2e/server.ts): its mailbox is where the test email lands.
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      GITHUB_CLIENT_ID: 'launch-github-id',
      GITHUB_CLIENT_SECRET: 'launch-github-secret',
      GOOGLE_CLIENT_ID: 'launch-google-id',
      GOOGLE_CLIENT_SECRET: 'launch-google-secret',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
    }
    // What is unset goes after what is set: only the variables this server does not get.
    const unset = launchVariables.filter((name) => !Object.hasOwn(set, name))
    server = await startSecondServer({ port: configuredPort, set, unset })
  })
  test.afterAll(async () => {
    await server?.stop()
    await new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve()))
  })

  test('(zh) the configured items are done, and the test email is delivered through SMTP', async ({ page }) => {
    await signUpAdmin(page, origin, admin, 'zh')
    await visit(page, `${origin}/zh/console/system`)
    const section = page.getByRole('region', { name: '上线前检查' })
    const items = section.getByTestId('system-launch-checks').getByRole('listitem')
    await expect(items).toHaveCount(10)
    await expect(section.getByTestId('system-launch-count')).toHaveText('已完成 4 / 10')
    for (const done of ['auth-secret', 'email', 'social-sign-in', 'telemetry']) {
      await expect(items.and(page.locator(`[data-check="${done}"]`))).toHaveAttribute('data-state', 'done')
    }
    await expect(items.and(page.locator('[data-check="email"]'))).toContainText('邮件经由 127.0.0.1')
    await expect(items.and(page.locator('[data-check="social-sign-in"]'))).toContainText('已配置：GitHub和Google。')
    // Served over plain http on this machine: APP_URL is not https, and Hatch records no backup.
    await expect(items.and(page.locator('[data-check="app-url"]'))).toHaveAttribute('data-state', 'todo')
    await expect(items.and(page.locator('[data-check="backups"]'))).toHaveAttribute('data-state', 'todo')

    await section.getByRole('button', { name: '发送测试邮件' }).click()
    await expect(page.getByText(`测试邮件正在发往 ${admin.email}。`)).toBeVisible()
    const email = await waitForEmail(admin.email, { subject: /来自 Hatch 的测试邮件/ })
    expect(email.text).toContain('/zh/console/system')
  })
})
