import { newAccount, signUpNewAccount } from './accounts'
import { expect, test, visit } from './fixtures'

test.describe('in-app notifications', () => {
  test('an invitation shows in the bell without a reload, leads to the invitation, and the choice of emails saves', async ({
    page,
    browser,
  }) => {
    test.slow() // two accounts, two browsers
    const invitee = await signUpNewAccount(page, newAccount({ name: 'Ivy Invitee' }))
    await visit(page, '/en/console')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const bell = page.getByRole('button', { name: 'Notifications', exact: true })
    await expect(bell).toBeVisible()
    await expect(page.getByTestId('notification-count')).toHaveCount(0)

    // Someone else, in their own browser, invites Ivy to their organization.
    const ownerContext = await browser.newContext()
    const ownerPage = await ownerContext.newPage()
    const owner = await signUpNewAccount(ownerPage, newAccount({ name: 'Otto Owner' }))
    const origin = new URL(ownerPage.url()).origin
    const invited = await ownerPage.request.post('/api/auth/organization/invite-member', {
      headers: { origin },
      data: { email: invitee.email, role: 'member' },
    })
    expect(invited.status(), await invited.text()).toBe(200)
    await ownerContext.close()

    // Ivy's open page hears it: the count, a toast, and the item in the bell.
    await expect(page.getByTestId('notification-count')).toHaveText('1')
    await expect(page.getByText(`${owner.name} invited you to ${owner.name}'s workspace`).first()).toBeVisible()
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).click()
    const item = page.getByTestId('notification')
    await expect(item).toHaveCount(1)
    await expect(item).toContainText(`${owner.name} invited you to`)
    await item.click()
    await expect(page).toHaveURL(/\/en\/accept-invitation\//)
    await visit(page, '/en/console')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(page.getByTestId('notification-count')).toHaveCount(0)

    // Account → Notifications: what also comes by email.
    await visit(page, '/en/console/account')
    const section = page.getByRole('region', { name: 'Notifications' })
    await expect(section.getByRole('checkbox', { name: /An import you started finished/ })).not.toBeChecked()
    await expect(section.getByRole('checkbox', { name: /Invitations to an organization/ })).toBeDisabled()
    await section.getByRole('checkbox', { name: /An import you started finished/ }).check()
    await section.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Notification settings saved')).toBeVisible()
    await page.reload()
    await expect(
      page
        .getByRole('region', { name: 'Notifications' })
        .getByRole('checkbox', { name: /An import you started finished/ }),
    ).toBeChecked()
  })
})
