import { newAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { type SecondServer, startSecondServer } from '../../../../../tests/e2e/second-server'

// A second server from the same build, started as a newcomer starts it: no AI_BASE_URL, no AI_MODEL, its own
// embedded database. The assistant must say so, and link to the page that explains the variables.
const port = Number(process.env.E2E_PORT ?? 3211) + 27
const origin = `http://localhost:${port}`
let server: SecondServer | undefined

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  server = await startSecondServer({ port, unset: ['AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY', 'AI_EMBEDDING_MODEL'] })
})

test.afterAll(async () => {
  await server?.stop()
})

test('without a provider, the assistant says AI is not configured and links to its docs, in both languages', async ({
  page,
}) => {
  const account = newAccount()
  await visit(page, `${origin}/en/sign-up`)
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page).toHaveURL(`${origin}/en/console`)

  await visit(page, `${origin}/en/console/assistant`)
  const notice = page.getByTestId('ai-not-configured')
  await expect(notice).toContainText('AI is not configured')
  await expect(page.getByLabel('Message to the assistant')).toHaveCount(0)
  await notice.getByRole('link', { name: 'How to configure AI' }).click()
  await expect(page).toHaveURL(`${origin}/en/docs/ai`)
  await expect(page.getByRole('main')).toContainText('AI_BASE_URL')

  await visit(page, `${origin}/zh/console/assistant`)
  await expect(page.getByTestId('ai-not-configured')).toContainText('AI 尚未配置')
  await expect(page.getByRole('link', { name: '如何配置 AI' })).toHaveAttribute('href', '/zh/docs/ai')
})
