import type { Browser, Page } from '@playwright/test'
import { newAccount, signUpNewAccount, uniqueId } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { startTestOidcProvider } from '../../../../../tests/support/oidc-provider'
import { type SamlIdp, startSamlIdp } from '../saml-idp'

// Enterprise single sign-on as an owner sets it up and a colleague uses it: real identity providers on 127.0.0.1
// (samlify's SAML IdP started here, oidc-provider), and the DNS responder tests/e2e/server.ts runs, whose TXT records
// this spec writes through its control port.
const dnsControl = `http://127.0.0.1:${Number(process.env.E2E_DNS_PORT ?? 4653) + 1}`

async function publishTxt(name: string, value: string) {
  const answer = await fetch(`${dnsControl}/txt`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, values: [value] }),
  })
  expect(answer.ok).toBe(true)
}

async function openSsoPage(page: Page) {
  await visit(page, '/en/console/organization/sso')
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible()
}

/** Publishes the record the page shows, presses Check, and waits for the domain to be verified. */
async function verifyDomain(page: Page, domain: string) {
  const name = (await page.getByTestId('sso-record-name').textContent()) ?? ''
  const value = (await page.getByTestId('sso-record-value').textContent()) ?? ''
  expect(name).toBe(`_hatch-sso.${domain}`)
  await page.getByRole('button', { name: 'Check' }).click()
  await expect(page.getByText('No TXT record found yet.', { exact: false })).toBeVisible()
  await publishTxt(name, value)
  await page.getByRole('button', { name: 'Check' }).click()
  await expect(page.getByTestId('sso-domain-verified')).toHaveText(`${domain} is verified`)
}

/** "Sign in with SSO" in a fresh browser, as a colleague who has no account yet. */
async function startSsoSignIn(browser: Browser, identifier: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await visit(page, '/en/sign-in')
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await page.getByRole('button', { name: 'Sign in with SSO' }).click()
  await page.getByLabel('Work email or organization').fill(identifier)
  await page.getByRole('button', { name: 'Continue with SSO' }).click()
  return { context, page }
}

test.describe('enterprise single sign-on', () => {
  let idp: SamlIdp
  test.beforeAll(async () => {
    idp = await startSamlIdp()
  })
  test.afterAll(async () => {
    await idp.close()
  })

  test('a newcomer reads the steps in order, which providers fit, where the guide is, and copies only the chosen protocol’s values', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signUpNewAccount(page, newAccount({ name: 'Nora Newcomer', email: `nora@nova${uniqueId()}.example` }))
    await openSsoPage(page)
    const steps = page.getByTestId('sso-step')
    await expect(steps).toHaveCount(5)
    await expect(steps.nth(0)).toContainText('Add your email domain')
    await expect(steps.nth(1)).toContainText('Prove you own the domain')
    await expect(steps.nth(1)).toContainText('TXT record')
    await expect(steps.nth(2)).toContainText('Choose SAML 2.0 or OpenID Connect')
    await expect(steps.nth(3)).toContainText('Test it')
    await expect(steps.nth(4)).toContainText('Require it')
    for (const provider of ['Okta', 'Microsoft Entra ID', 'Google Workspace']) {
      await expect(page.getByTestId('sso-providers')).toContainText(provider)
    }
    await expect(page.getByRole('link', { name: 'Read the single sign-on guide' })).toHaveAttribute(
      'href',
      '/en/docs/sso',
    )

    // SAML is chosen at first: its values only, each with a Copy button that copies it.
    const values = page.getByTestId('sso-service-provider')
    await expect(values.getByTestId('sso-acs-url')).toBeVisible()
    await expect(values.getByTestId('sso-entity-id')).toBeVisible()
    await expect(values.getByTestId('sso-redirect-uri')).toHaveCount(0)
    const acsUrl = (await values.getByTestId('sso-acs-url').textContent()) ?? ''
    await values.getByRole('button', { name: 'Copy Assertion consumer service (ACS) URL' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(acsUrl)

    // OpenID Connect chosen: its redirect URI only.
    await page.getByLabel('Protocol').selectOption('oidc')
    await expect(values.getByTestId('sso-redirect-uri')).toHaveText(/\/api\/auth\/sso\/callback\/org-/)
    await expect(values.getByTestId('sso-acs-url')).toHaveCount(0)
    await expect(values.getByRole('button', { name: 'Copy Redirect URI' })).toBeVisible()

    // The same in Chinese.
    await visit(page, '/zh/console/organization/sso')
    await expect(page.getByRole('heading', { name: '设置步骤' })).toBeVisible()
    await expect(page.getByTestId('sso-step').nth(1)).toContainText('证明域名归你所有')
    await expect(page.getByTestId('sso-providers')).toContainText('Microsoft Entra ID')
    await expect(page.getByRole('link', { name: '阅读单点登录指南' })).toHaveAttribute('href', '/zh/docs/sso')
    await expect(page.getByTestId('sso-redirect-uri')).toHaveCount(0)
  })

  test('an owner connects a SAML identity provider and proves the domain; a colleague signs in and joins; SSO can be required', async ({
    page,
    browser,
  }) => {
    test.slow() // two browsers, sign-up, the identity provider's round trip
    const domain = `acme${uniqueId()}.example`
    await signUpNewAccount(page, newAccount({ name: 'Olivia Owner', email: `olivia@${domain}` }))
    await openSsoPage(page)
    await expect(page.getByTestId('sso-status')).toHaveText('Not set up')
    await expect(page.getByTestId('sso-acs-url')).toHaveText(/\/api\/auth\/sso\/saml2\/sp\/acs\/org-/)

    // The form says what is wrong, in place; then the metadata is read from its URL.
    await page.getByLabel('Email domain').fill('not a domain')
    await page.getByRole('button', { name: 'Save connection' }).click()
    await expect(page.getByTestId('error-domain')).toHaveText('Enter an email domain such as example.com')
    await page.getByLabel('Email domain').fill(domain)
    await page.getByLabel('Metadata URL').fill(idp.metadataUrl)
    await page.getByRole('button', { name: 'Save connection' }).click()
    await expect(page.getByText('Single sign-on connection saved')).toBeVisible()
    await expect(page.getByTestId('sso-issuer')).toHaveText(idp.entityId)
    await expect(page.getByTestId('sso-status')).toHaveText('Waiting for domain verification')
    await expect(page.getByTestId('sso-require')).toBeDisabled()

    await verifyDomain(page, domain)
    await expect(page.getByTestId('sso-status')).toHaveText('Active')
    const slug = ((await page.getByTestId('sso-how-to-sign-in').textContent()) ?? '').match(/: ([a-z0-9-]+)\.$/)?.[1]
    expect(slug).toBeTruthy()

    // A colleague's first sign-in: the identity provider's page posts back, and the console opens in Acme.
    idp.setUser({ email: `grace@${domain}`, firstName: 'Grace', lastName: 'Hopper' })
    const colleague = await startSsoSignIn(browser, `grace@${domain}`)
    await expect(colleague.page).toHaveURL(/\/en\/console$/, { timeout: 20_000 })
    await visit(colleague.page, '/en/console/organization/members')
    await expect(colleague.page.getByTestId('members-list').getByText('Grace Hopper')).toBeVisible()
    await expect(colleague.page.getByTestId('members-list').getByText('Olivia Owner')).toBeVisible()
    await colleague.context.close()

    // By the organization's URL name, too.
    const again = await startSsoSignIn(browser, slug ?? '')
    await expect(again.page).toHaveURL(/\/en\/console$/, { timeout: 20_000 })
    await again.context.close()

    // Required: a password sign-in of the domain is refused with a message saying what to do.
    await page.getByTestId('sso-require').check()
    await expect(page.getByText(`SSO is now required for ${domain}`)).toBeVisible()
    await expect(page.getByTestId('sso-status')).toHaveText(`Active, required for ${domain}`)
    const refusedContext = await browser.newContext()
    const refused = await refusedContext.newPage()
    await visit(refused, '/en/sign-in')
    await refused.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await refused.getByLabel('Email or username', { exact: true }).fill(`grace@${domain}`)
    await refused.getByLabel('Password', { exact: true }).fill('any-password-1')
    await refused.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(refused.getByText('Your organization signs you in through its identity provider')).toBeVisible()
    // A refused identity provider answer comes back to the sign-in page, explained.
    await visit(refused, '/en/sign-in?oauth=failed&error=saml_error')
    await expect(refused.getByText("Your identity provider's answer was refused")).toBeVisible()
    await refusedContext.close()

    // The activity log tells the story.
    await visit(page, '/en/console/organization/activity')
    await expect(page.getByText(`saved the single sign-on connection (SAML 2.0, ${domain})`)).toBeVisible()
    await expect(page.getByText(`verified the domain ${domain} for single sign-on`)).toBeVisible()
    await expect(page.getByText('Grace Hopper joined as Member')).toBeVisible()

    // Removing it (confirmed) stops SSO sign-in.
    await openSsoPage(page)
    await page.getByRole('button', { name: 'Remove connection' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove connection' }).click()
    await expect(page.getByText('Single sign-on removed')).toBeVisible()
    await expect(page.getByTestId('sso-status')).toHaveText('Not set up')
  })

  test('an owner connects an OpenID Connect provider; a colleague signs in through it by the organization’s name', async ({
    page,
    browser,
  }) => {
    test.slow()
    const domain = `initech${uniqueId()}.example`
    await signUpNewAccount(page, newAccount({ name: 'Bill Owner', email: `bill@${domain}` }))
    await openSsoPage(page)
    await page.getByLabel('Protocol').selectOption('oidc')
    const redirectUri = (await page.getByTestId('sso-redirect-uri').textContent()) ?? ''
    expect(redirectUri).toMatch(/\/api\/auth\/sso\/callback\/org-/)
    const oidc = await startTestOidcProvider({
      appUrl: new URL(page.url()).origin,
      redirectUris: [redirectUri],
      tokenEndpointAuthMethod: 'client_secret_basic',
    })
    try {
      await page.getByLabel('Email domain').fill(domain)
      await page.getByLabel('Issuer URL').fill(oidc.issuer)
      await page.getByLabel('Client ID').fill(oidc.config.clientId)
      await page.getByLabel('Client secret').fill(oidc.config.clientSecret)
      await page.getByRole('button', { name: 'Save connection' }).click()
      await expect(page.getByText('Single sign-on connection saved')).toBeVisible()
      await expect(page.getByTestId('sso-issuer')).toHaveText(oidc.issuer)
      await expect(page.getByText(oidc.config.clientSecret)).toHaveCount(0)
      await verifyDomain(page, domain)
      const slug = ((await page.getByTestId('sso-how-to-sign-in').textContent()) ?? '').match(/: ([a-z0-9-]+)\.$/)?.[1]

      const colleague = await startSsoSignIn(browser, slug ?? '')
      // The provider's development pages import a web font from the internet, which this machine cannot reach.
      await colleague.context.route('https://fonts.googleapis.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
      )
      await expect(colleague.page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/interaction\//)
      await colleague.page.getByPlaceholder('Enter any login').fill(`peter@${domain}`)
      await colleague.page.getByPlaceholder('and password').fill('any-password')
      await colleague.page.getByRole('button', { name: 'Sign-in' }).click()
      await colleague.page.getByRole('button', { name: 'Continue' }).click()
      await expect(colleague.page).toHaveURL(/\/en\/console$/, { timeout: 20_000 })
      await visit(colleague.page, '/en/console/organization/members')
      await expect(colleague.page.getByTestId('members-list').getByText('Bill Owner')).toBeVisible()
      await colleague.context.close()
    } finally {
      await oidc.close()
    }
  })
})
