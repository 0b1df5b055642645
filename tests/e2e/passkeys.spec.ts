import type { Page } from '@playwright/test'
import { landInConsole, signOut, signUpNewAccount } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform authenticator that verifies the user at once. */
async function attachVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

/**
 * The virtual authenticator answers a conditional (autofill) request at once, as if the visitor had picked the
 * passkey in the identifier field's list. To use the button instead, the browser stops offering conditional UI.
 */
async function turnOffPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false })
  })
}

async function addPasskey(page: Page, name: string) {
  const form = page.getByRole('form', { name: 'Add a passkey' })
  await form.getByLabel('Passkey name').fill(name)
  await form.getByRole('button', { name: 'Add passkey' }).click()
}

test.describe('passkeys', () => {
  test('adds a passkey, renames it, and signs in with it', async ({ page }) => {
    // Three sign-ins, each landing on the console: past 30 s on a busy 2-core machine (a CI run timed out at 31 s).
    test.slow()
    const account = await signUpNewAccount(page)
    await attachVirtualAuthenticator(page)
    const passkeys = page.getByTestId('passkeys-list').getByTestId('passkey')
    await expect(page.getByText('You have no passkeys yet.')).toBeVisible()

    await addPasskey(page, 'Laptop key')
    await expect(page.getByText('Passkey added.')).toBeVisible()
    await expect(passkeys).toHaveCount(1)
    await expect(passkeys.getByTestId('passkey-name')).toHaveText('Laptop key')
    await expect(passkeys).toContainText('Bound to one device')

    await page.getByRole('button', { name: 'Rename Laptop key' }).click()
    const rename = page.getByRole('form', { name: 'Rename Laptop key' })
    await rename.getByLabel('New name').fill('   ')
    await rename.getByRole('button', { name: 'Save name' }).click()
    await expect(rename.getByText('Enter a name for the passkey.')).toBeVisible()
    await rename.getByLabel('New name').fill('Work laptop')
    await rename.getByRole('button', { name: 'Save name' }).click()
    await expect(page.getByText('Passkey renamed.')).toBeVisible()
    await expect(passkeys.getByTestId('passkey-name')).toHaveText('Work laptop')

    // Picking the passkey in the identifier field's autofill list signs in.
    // (Not signOut(): the sign-in page may already have moved on by the time it is interactive.)
    await page.getByTestId('console-user').click()
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click()
    await page.waitForURL(/\/en\/sign-in$/)
    await landInConsole(page)
    await expect(page.getByTestId('console-user')).toContainText(account.name)

    // And so does the button.
    await turnOffPasskeyAutofill(page)
    await signOut(page)
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await landInConsole(page)
    await expect(page.getByTestId('console-user')).toContainText(account.name)
  })

  test.describe('when things go wrong', () => {
    // The browser reports the refused verification of the deleted passkey.
    test.use({ expectedConsoleErrors: documentStatusError(401) })

    test('refuses to register the same authenticator twice, and a deleted passkey no longer signs in', async ({
      page,
    }) => {
      await signUpNewAccount(page)
      await attachVirtualAuthenticator(page)
      const passkeys = page.getByTestId('passkeys-list').getByTestId('passkey')

      await addPasskey(page, 'Phone')
      await expect(passkeys.getByTestId('passkey-name')).toHaveText('Phone')
      await addPasskey(page, 'Phone again')
      await expect(page.getByText('This authenticator was previously registered to your account.')).toBeVisible()
      await expect(passkeys).toHaveCount(1)

      await page.getByRole('button', { name: 'Delete Phone' }).click()
      await expect(page.getByText('Delete “Phone”? You will no longer be able to sign in with it.')).toBeVisible()
      await page.getByRole('button', { name: 'Delete passkey' }).click()
      await expect(page.getByText('Passkey deleted.')).toBeVisible()
      await expect(page.getByText('You have no passkeys yet.')).toBeVisible()

      // The authenticator still holds the credential, but the site no longer knows it (asked here in Chinese).
      await turnOffPasskeyAutofill(page)
      await signOut(page)
      await visit(page, '/zh/sign-in')
      await page.getByRole('button', { name: '使用通行密钥登录' }).click()
      await expect(page.getByText('通行密钥登录已取消或未成功。')).toBeVisible()
      await expect(page).toHaveURL(/\/zh\/sign-in$/)
    })
  })
})
