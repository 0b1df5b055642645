import { landInConsoleThenOpenAccount } from './accounts'
import { expect, test, visit } from './fixtures'

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`

test('a guest keeps their API key when they sign up, and is a guest no more', async ({ page, request }) => {
  await visit(page, '/en/sign-in')
  await page.getByRole('button', { name: 'Continue as guest' }).click()
  await landInConsoleThenOpenAccount(page)
  const guestBanner = page.getByTestId('guest-banner')
  await expect(guestBanner).toContainText('You are using a guest account')
  await expect(page.getByTestId('console-user')).toContainText('Guest')
  // Nothing a guest cannot use: no email, password or provider of their own to manage yet.
  for (const section of [
    'Email address',
    'Password',
    'Two-factor authentication',
    'Linked accounts',
    'Delete account',
  ]) {
    await expect(page.getByRole('region', { name: section, exact: true })).toHaveCount(0)
  }
  await expect(page.getByTestId('verify-email-banner')).toHaveCount(0)

  const keys = page.getByRole('region', { name: 'API keys' })
  await keys.getByLabel('Key name').fill('Guest script')
  await keys.getByRole('button', { name: 'Create key' }).click()
  const apiKey = (await keys.getByTestId('new-api-key-value').textContent()) ?? ''
  expect(apiKey).toMatch(/^hatch_/)
  const asGuest = await request.get('/api/trpc/account.me', { headers: { 'x-api-key': apiKey } })
  expect(asGuest.status()).toBe(200)
  const guestId = (await asGuest.json()).result.data.json.id

  await guestBanner.getByRole('link', { name: 'Create an account' }).click()
  await expect(page).toHaveURL(/\/en\/sign-up$/)
  // The address changes before the sign-up page replaces the Account page, whose profile has a Name field too.
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible()
  const account = { name: 'Mary Jackson', email: `mary${unique()}@example.com`, password: 'wind-tunnel1' }
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await landInConsoleThenOpenAccount(page)

  await expect(page.getByTestId('console-user')).toContainText(account.name)
  await expect(page.getByTestId('guest-banner')).toHaveCount(0)
  for (const section of [
    'Email address',
    'Password',
    'Two-factor authentication',
    'Linked accounts',
    'Delete account',
  ]) {
    await expect(page.getByRole('region', { name: section, exact: true })).toBeVisible()
  }
  await expect(page.getByTestId('account-email')).toContainText(account.email)
  await expect(keys.getByTestId('api-key-row')).toContainText('Guest script')

  const asMember = await request.get('/api/trpc/account.me', { headers: { 'x-api-key': apiKey } })
  expect(asMember.status()).toBe(200)
  const me = (await asMember.json()).result.data.json
  expect(me).toMatchObject({ name: account.name, email: account.email })
  expect(me.id).not.toBe(guestId)
})
