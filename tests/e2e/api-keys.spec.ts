import type { APIRequestContext } from '@playwright/test'
import { signUpNewAccount } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

/** account.me with only the API key: Playwright's own request context carries none of the browser's cookies. */
async function callMe(request: APIRequestContext, apiKey: string) {
  const response = await request.get('/api/trpc/account.me', { headers: { 'x-api-key': apiKey } })
  return { status: response.status(), body: await response.json() }
}

test.describe('API keys', () => {
  // The browser reports the refused deletion of an already deleted key (none in the happy path).
  test.use({ expectedConsoleErrors: documentStatusError(401) })

  test('a key is shown once, calls the API as its owner, and stops working once deleted', async ({
    page,
    request,
    context,
  }) => {
    test.slow() // one long story: sign-up, two page loads, four API calls
    const account = await signUpNewAccount(page)
    const section = page.getByRole('region', { name: 'API keys' })
    await expect(section.getByText('No API keys yet.')).toBeVisible()

    // The name is required and limited.
    await section.getByRole('button', { name: 'Create key' }).click()
    await expect(section.getByTestId('error-name')).toHaveText('Required')
    await section.getByLabel('Key name').fill('x'.repeat(40))
    await expect(section.getByLabel('Key name')).toHaveValue('x'.repeat(32))

    await section.getByLabel('Key name').fill('Deploy script')
    await section.getByLabel('Expires').selectOption({ label: 'In 90 days' })
    await section.getByRole('button', { name: 'Create key' }).click()
    const shown = section.getByTestId('new-api-key')
    await expect(shown).toContainText('it is shown only once')
    const apiKey = (await shown.getByTestId('new-api-key-value').textContent()) ?? ''
    expect(apiKey).toMatch(/^hatch_\w{20,}$/)

    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await shown.getByRole('button', { name: 'Copy key' }).click()
    await expect(page.getByText('Key copied')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey)

    const row = section.getByTestId('api-key-row')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText('Deploy script')
    await expect(row.getByTestId('api-key-start')).toHaveText(`${apiKey.slice(0, 10)}…`)
    await expect(row).toContainText('Expires')

    // After a reload only the start of the key is left on the page.
    await visit(page, '/en/console/account')
    await expect(section.getByTestId('api-key-row')).toContainText('Deploy script')
    await expect(section.getByTestId('new-api-key')).toHaveCount(0)
    await expect(page.getByText(apiKey)).toHaveCount(0)

    const me = await callMe(request, apiKey)
    expect(me.status).toBe(200)
    expect(me.body.result.data.json).toMatchObject({ name: account.name, email: account.email })

    await section.getByRole('button', { name: 'Delete key Deploy script' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete key Deploy script' })
    await expect(confirm).toContainText('Anything using it stops working')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(section.getByTestId('api-key-row')).toHaveCount(1)
    await section.getByRole('button', { name: 'Delete key Deploy script' }).click()
    await confirm.getByRole('button', { name: 'Delete key' }).click()
    await expect(page.getByText('API key deleted')).toBeVisible()
    await expect(section.getByText('No API keys yet.')).toBeVisible()

    const revoked = await callMe(request, apiKey)
    expect(revoked.status).toBe(401)
    expect(revoked.body.error.json.data.code).toBe('UNAUTHORIZED')
  })

  test('a made-up or malformed key is 401 with a JSON error, never a 500', async ({ request }) => {
    for (const apiKey of [`hatch_${'a'.repeat(64)}`, 'short', '']) {
      const answer = await callMe(request, apiKey)
      expect(answer.status).toBe(401)
      expect(answer.body.error.json.data.code).toBe('UNAUTHORIZED')
    }
  })

  // An expired key: neither the browser nor the HTTP API can create a key whose expiry is in the past (the plugin
  // insists on at least one day), and this server's embedded database belongs to its own process. So
  // tests/integration/api-keys.test.ts moves a real key's `expires_at` into the past in the database and checks the
  // same GET /api/trpc/account.me answers 401.
})
