import { expect, test, visit } from './fixtures'
import { type SecondServer, startSecondServer } from './second-server'

// A second server from the same build, started as a newcomer starts it: no AI_BASE_URL, no AI_MODEL, its own
// embedded database. Ask the docs must say so, and link to the page that explains the variables (the assistant's own
// notice is tested in its app).
const port = Number(process.env.E2E_PORT ?? 3211) + 17
const origin = `http://localhost:${port}`
let server: SecondServer | undefined

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  server = await startSecondServer({ port, unset: ['AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY', 'AI_EMBEDDING_MODEL'] })
})

test.afterAll(async () => {
  await server?.stop()
})

test('without a provider, Ask the docs says AI is not configured and links to its docs, in both languages', async ({
  page,
}) => {
  await visit(page, `${origin}/en/docs`)
  // A click before the page's code has loaded is lost: click again until the dialog shows.
  await expect(async () => {
    await page.getByRole('button', { name: 'Ask AI', exact: true }).click()
    await expect(page.getByTestId('ask-docs')).toBeVisible({ timeout: 5000 })
  }).toPass()
  const notice = page.getByTestId('ask-docs').getByTestId('ai-not-configured')
  await expect(notice).toContainText('AI is not configured')
  await notice.getByRole('link', { name: 'How to configure AI' }).click()
  await expect(page).toHaveURL(`${origin}/en/docs/ai`)
  await expect(page.getByRole('main')).toContainText('AI_BASE_URL')

  await visit(page, `${origin}/zh/docs`)
  await expect(async () => {
    await page.getByRole('button', { name: '问 AI', exact: true }).click()
    await expect(page.getByTestId('ask-docs')).toBeVisible({ timeout: 5000 })
  }).toPass()
  await expect(page.getByTestId('ask-docs').getByTestId('ai-not-configured')).toContainText('AI 尚未配置')
  await expect(page.getByTestId('ask-docs').getByRole('link', { name: '如何配置 AI' })).toHaveAttribute(
    'href',
    '/zh/docs/ai',
  )
})
