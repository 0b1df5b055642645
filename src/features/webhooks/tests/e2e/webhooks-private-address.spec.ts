import type { Page } from '@playwright/test'
import { newAccount } from '../../../../../tests/e2e/accounts'
import { documentStatusError, expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { type SecondServer, startSecondServer } from '../../../../../tests/e2e/second-server'

// A second production server from the same build as a deployment runs it: without WEBHOOKS_ALLOW_PRIVATE, so a
// receiver on this machine is refused. Whoever runs the server (its app admin, the first account) is told which
// variable allows local receivers; an organization admin who is not is told only that the address is private.
const port = Number(process.env.E2E_PORT ?? 3211) + 23
const origin = `http://localhost:${port}`
const localReceiver = 'http://127.0.0.1:9/hooks'
let server: SecondServer | undefined

test.describe.configure({ mode: 'serial' })
// The refusal is the API's 400, which the browser logs.
test.use({ expectedConsoleErrors: documentStatusError(400) })

test.beforeAll(async () => {
  server = await startSecondServer({ port, unset: ['WEBHOOKS_ALLOW_PRIVATE'] })
})

test.afterAll(async () => {
  await server?.stop()
})

async function signUp(page: Page) {
  const account = newAccount()
  await visit(page, `${origin}/en/sign-up`)
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page).toHaveURL(`${origin}/en/console`)
}

const words = {
  en: { add: 'Add endpoint', title: 'Add a webhook endpoint', url: 'Endpoint URL', event: /A member joined/ },
  zh: { add: '添加端点', title: '添加 Webhook 端点', url: '端点地址', event: /有成员加入/ },
  save: { en: 'Save', zh: '保存' },
}

/** Tries to save an endpoint at a loopback address and returns the message under the URL field. */
async function refusalFor(page: Page, lang: 'en' | 'zh') {
  await visit(page, `${origin}/${lang}/console/organization/webhooks`)
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await page.getByRole('button', { name: words[lang].add }).first().click()
  const dialog = page.getByRole('dialog', { name: words[lang].title })
  await dialog.getByLabel(words[lang].url).fill(localReceiver)
  await dialog.getByRole('checkbox', { name: words[lang].event }).check()
  await dialog.getByRole('button', { name: words.save[lang] }).click()
  const error = dialog.getByTestId('error-url')
  await expect(error).toBeVisible()
  return error
}

test('the app admin is told how to allow local receivers, in English and Chinese', async ({ page }) => {
  test.slow() // a second server's sign-up and two languages
  await signUp(page)
  const english = await refusalFor(page, 'en')
  await expect(english).toContainText('This address is inside a private network')
  await expect(english).toContainText('WEBHOOKS_ALLOW_PRIVATE=1')
  const chinese = await refusalFor(page, 'zh')
  await expect(chinese).toContainText('该地址位于私有网络内')
  await expect(chinese).toContainText('WEBHOOKS_ALLOW_PRIVATE=1')
})

test('an organization admin who does not run the server is not shown the server setting', async ({ page }) => {
  await signUp(page)
  const refusal = await refusalFor(page, 'en')
  await expect(refusal).toHaveText('This address is inside a private network; webhooks go only to public addresses')
  await expect(page.getByText('WEBHOOKS_ALLOW_PRIVATE')).toHaveCount(0)
})
