import { newAccount, signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { waitForEmail } from '../../../../../tests/e2e/mailbox'

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

  test('a role change names the roles as people read them, in English and in Chinese, in the bell and the activity log', async ({
    page,
    browser,
  }) => {
    test.slow() // two accounts, two browsers
    const member = await signUpNewAccount(page, newAccount({ name: 'Rita Role' }))
    const ownerContext = await browser.newContext()
    const ownerPage = await ownerContext.newPage()
    const owner = await signUpNewAccount(ownerPage, newAccount({ name: 'Omar Owner' }))
    const origin = new URL(ownerPage.url()).origin
    const invited = await ownerPage.request.post('/api/auth/organization/invite-member', {
      headers: { origin },
      data: { email: member.email, role: 'member' },
    })
    expect(invited.status(), await invited.text()).toBe(200)
    // Only the address's owner may answer an invitation: Rita confirms hers first.
    const sent = await page.request.post('/api/auth/send-verification-email', {
      headers: { origin },
      data: { email: member.email, callbackURL: '/en/console' },
    })
    expect(sent.status(), await sent.text()).toBe(200)
    const confirmation = await waitForEmail(member.email, { subject: /Confirm your email/ })
    const confirmLink = confirmation.links.find((url) => url.includes('verify-email'))
    expect(confirmLink, 'the confirmation email has its link').toBeTruthy()
    await page.goto(confirmLink ?? '')
    const accepted = await page.request.post('/api/auth/organization/accept-invitation', {
      headers: { origin },
      data: { invitationId: ((await invited.json()) as { id: string }).id },
    })
    expect(accepted.status(), await accepted.text()).toBe(200)
    const { member: membership } = (await accepted.json()) as { member: { id: string } }

    await visit(page, '/en/console')
    const changed = await ownerPage.request.post('/api/auth/organization/update-member-role', {
      headers: { origin },
      data: { memberId: membership.id, role: ['member', 'admin'] },
    })
    expect(changed.status(), await changed.text()).toBe(200)

    const workspace = `${owner.name}'s workspace`
    await expect(page.getByTestId('notification-count')).toHaveText(/\d/)
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click()
    const item = page.getByTestId('notification').filter({ hasText: 'Your role in' })
    await expect(item).toContainText(`Your role in ${workspace} is now Member, Admin`)
    await expect(item).not.toContainText('member,admin')

    await visit(page, '/zh/console')
    await page.getByRole('button', { name: /^通知/ }).click()
    const zhItem = page.getByTestId('notification').filter({ hasText: '的角色已变为' })
    await expect(zhItem).toContainText(`你在 ${workspace} 的角色已变为 成员、管理员`)

    // The owner's activity log says the same in words.
    await visit(ownerPage, '/en/console/organization/activity')
    await expect(ownerPage.getByText(`changed the role of ${member.name} from Member to Member, Admin`)).toBeVisible()
    await ownerContext.close()
  })
})
