import type { Browser, Page } from '@playwright/test'
import { landInConsole, newAccount, signUpNewAccount, type TestAccount, uniqueId } from './accounts'
import {
  consoleNav,
  createOrganization,
  expectActiveOrganization,
  inviteByEmail,
  memberRow,
  organizationSwitcher,
} from './console'
import { expect, test, visit } from './fixtures'
import { waitForEmail } from './mailbox'

/** The accept-page link of the newest invitation email to `email`, checked to be the English page on this site. */
async function invitationLink(email: string, organization: string, inviter: string): Promise<string> {
  const message = await waitForEmail(email, { subject: new RegExp(`invited you to ${organization}`) })
  expect(message.subject).toBe(`${inviter} invited you to ${organization} on Hatch`)
  expect(message.text).toContain(`${inviter} invited you to join ${organization} on Hatch as Member.`)
  const link = message.links.find((url) => url.includes('/accept-invitation/')) ?? ''
  expect(link, 'the email links to the English accept page').toMatch(
    /^http:\/\/localhost:\d+\/en\/accept-invitation\/[\w-]+$/,
  )
  return link
}

/** A browser of its own, signed out. */
async function signedOutBrowser(browser: Browser) {
  const context = await browser.newContext()
  return { context, page: await context.newPage() }
}

/** Signs up on the sign-up page already open (which may carry a `redirect`). */
async function fillSignUp(page: Page, account: TestAccount) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
}

/** Opens a member's row menu on the Members page and saves the roles ticked (and unticks the others named). */
async function changeRoles(page: Page, name: string, roles: { check: string[]; uncheck: string[] }) {
  await visit(page, '/en/console/organization/members')
  await page.getByRole('button', { name: `Actions for ${name}` }).click()
  await page.getByRole('menuitem', { name: 'Change role' }).click()
  const form = page.getByRole('form', { name: 'Change role' })
  for (const role of roles.check) await form.getByLabel(role, { exact: true }).check()
  for (const role of roles.uncheck) await form.getByLabel(role, { exact: true }).uncheck()
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText(`The roles of ${name} were changed.`)).toBeVisible()
}

test.describe('organizations', () => {
  test('an owner invites by email; the invitee signs up from the link, gets roles and a team, and switches back', async ({
    page,
    browser,
  }) => {
    test.slow() // two people, two browsers, a dozen page loads

    // A new account works in a personal workspace, on the Dashboard.
    const owner = await signUpNewAccount(page, newAccount({ name: 'Mary Jackson' }))
    await visit(page, '/en/console')
    await expectActiveOrganization(page, `${owner.name}'s workspace`)
    await expect(organizationSwitcher(page)).toContainText(`${owner.name}'s workspace`)
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
    await expect(page.getByText('Charts arrive with analytics')).toBeVisible()

    // An organization of their own: the slug follows the name, and the new organization becomes the active one.
    const id = uniqueId()
    const organization = `Langley Research ${id}`
    await organizationSwitcher(page).click()
    await page.getByRole('menuitem', { name: 'Create organization' }).click()
    const createForm = page.getByRole('form', { name: 'Create organization' })
    await createForm.getByLabel('Name', { exact: true }).fill(organization)
    await expect(createForm.getByLabel('Slug', { exact: true })).toHaveValue(`langley-research-${id}`)
    await createForm.getByRole('button', { name: 'Create', exact: true }).click()
    await expect(page.getByText(`${organization} was created and is now active.`)).toBeVisible()
    await expectActiveOrganization(page, organization)
    await visit(page, '/en/console/organization')
    await expect(page.getByTestId('organization-name')).toHaveText(organization)
    await expect(page.getByText(`langley-research-${id}`, { exact: true })).toBeVisible()
    await expect(page.getByTestId('organization-role')).toContainText('Your role: Owner')

    // The invitation, by email, as a Member.
    const invitee = newAccount({ name: 'Christine Darden', email: `christine${uniqueId()}@example.com` })
    await inviteByEmail(page, invitee.email, 'Member')
    const link = await invitationLink(invitee.email, organization, owner.name)
    const invitationId = link.split('/').pop() ?? ''

    // The invitee, signed out in a browser of their own, sees who invites them where, and creates an account.
    const { context: inviteeContext, page: inviteePage } = await signedOutBrowser(browser)
    const response = await visit(inviteePage, link)
    expect(response?.status()).toBe(200)
    await expect(inviteePage.getByTestId('invitation-summary')).toHaveText(
      `${owner.name} invited you to join ${organization} as Member.`,
    )
    await expect(
      inviteePage.getByText(
        `Sign in or create an account with ${invitee.email} to answer; you come back here afterwards.`,
      ),
    ).toBeVisible()
    await expect(inviteePage.getByRole('link', { name: 'Sign in to accept' })).toBeVisible()
    await inviteePage.getByRole('link', { name: 'Create an account' }).click()
    await expect(inviteePage).toHaveURL(
      new RegExp(`/en/sign-up\\?redirect=${encodeURIComponent(`/en/accept-invitation/${invitationId}`)}$`),
    )
    await fillSignUp(inviteePage, invitee)

    // Back on the accept page, signed in with the invited address: Accept.
    await expect(inviteePage).toHaveURL(new RegExp(`/en/accept-invitation/${invitationId}$`))
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(inviteePage.getByRole('button', { name: 'Decline' })).toBeVisible()
    await inviteePage.getByRole('button', { name: 'Accept' }).click()
    await landInConsole(inviteePage)
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expectActiveOrganization(inviteePage, organization)

    // A Member, and certainly not an app admin (someone signed up before them): no Configuration, Users or Invitations.
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Members' })).toBeVisible()
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Configuration' })).toHaveCount(0)
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Users' })).toHaveCount(0)
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Invitations' })).toHaveCount(0)
    // The link has done its work.
    await visit(inviteePage, link)
    await expect(inviteePage.getByTestId('invitation-status')).toHaveText('This invitation has already been accepted.')
    await expect(inviteePage.getByRole('button', { name: 'Accept' })).toHaveCount(0)
    await visit(inviteePage, '/en/console/organization/members')
    await expect(inviteePage.getByTestId('members-list').getByTestId('member-row')).toHaveCount(2)
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('Member')
    await expect(memberRow(inviteePage, owner.name).getByTestId('member-role')).toHaveText('Owner')

    // The owner makes them an Admin; after a reload the invitee sees it, and may invite people.
    await changeRoles(page, invitee.name, { check: ['Admin'], uncheck: ['Member'] })
    await expect(memberRow(page, invitee.name).getByTestId('member-role')).toHaveText('Admin')
    await inviteePage.reload()
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('Admin')
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Invitations' })).toBeVisible()

    // The owner creates a team and puts the invitee in it; the invitee finds it among their teams.
    await visit(page, '/en/console/organization/teams')
    const createTeam = page.getByRole('form', { name: 'Create team' })
    await createTeam.getByLabel('Team name').fill('Wind Tunnels')
    await createTeam.getByRole('button', { name: 'Create team' }).click()
    const team = page.getByTestId('team-card').filter({ hasText: 'Wind Tunnels' })
    await expect(team).toBeVisible()
    await team.getByLabel('Member to add').selectOption({ label: `${invitee.name} (${invitee.email})` })
    await team.getByRole('button', { name: 'Add to team' }).click()
    await expect(team.getByRole('list', { name: 'Members of Wind Tunnels' })).toContainText(invitee.name)
    await visit(inviteePage, '/en/console/organization/teams')
    await expect(inviteePage.getByTestId('your-teams')).toHaveText('Wind Tunnels')

    // A custom role with a permission picked on the Roles page, given to the invitee instead of Admin.
    await visit(page, '/en/console/organization/roles')
    await page.getByRole('button', { name: 'Create role' }).click()
    const roleForm = page.getByRole('form', { name: 'Create role' })
    await roleForm.getByLabel('Role name').fill('reviewer')
    const books = roleForm.getByRole('group', { name: 'Books' })
    await books.getByLabel('read', { exact: true }).check()
    await books.getByLabel('update', { exact: true }).check()
    await roleForm.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Role reviewer was created.')).toBeVisible()
    const customRoles = page.getByTestId('custom-roles')
    await expect(customRoles.getByRole('listitem')).toHaveCount(1)
    await expect(customRoles).toContainText('reviewer')
    await expect(customRoles).toContainText('Books: read, update')

    await changeRoles(page, invitee.name, { check: ['reviewer'], uncheck: ['Admin'] })
    await expect(memberRow(page, invitee.name).getByTestId('member-role')).toHaveText('reviewer')
    await visit(inviteePage, '/en/console/organization/members')
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('reviewer')
    // The custom role grants books, not invitations.
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Books' })).toBeVisible()
    await expect(consoleNav(inviteePage).getByRole('link', { name: 'Invitations' })).toHaveCount(0)

    // The invitee switches back to their own workspace, where they are alone.
    await organizationSwitcher(inviteePage).click()
    await expect(inviteePage.getByTestId('organization-option')).toHaveCount(2)
    await inviteePage.getByRole('menuitem', { name: `${invitee.name}'s workspace` }).click()
    await expect(inviteePage.getByText(`Switched to ${invitee.name}'s workspace.`)).toBeVisible()
    await expectActiveOrganization(inviteePage, `${invitee.name}'s workspace`)
    await expect(inviteePage.getByTestId('member-row')).toHaveCount(1)
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('Owner')
    // The choice is the session's: it holds on a fresh page load.
    await visit(inviteePage, '/en/console/organization/members')
    await expectActiveOrganization(inviteePage, `${invitee.name}'s workspace`)
    await expect(inviteePage.getByTestId('member-row')).toHaveCount(1)
    await inviteeContext.close()
  })

  test.describe('the accept page when the invitation cannot be accepted', () => {
    test('a cancelled invitation says it was cancelled', async ({ page, browser }) => {
      const owner = await signUpNewAccount(page)
      await visit(page, '/en/console')
      const organization = `Cancelled Co ${uniqueId()}`
      await createOrganization(page, organization)
      const email = `cancelled${uniqueId()}@example.com`
      await inviteByEmail(page, email)
      const link = await invitationLink(email, organization, owner.name)

      await page.getByRole('button', { name: `Cancel the invitation for ${email}` }).click()
      await expect(page.getByText(`The invitation for ${email} was cancelled.`)).toBeVisible()
      await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0)

      const visitor = await signedOutBrowser(browser)
      const response = await visit(visitor.page, link)
      expect(response?.status()).toBe(200)
      await expect(visitor.page.getByTestId('invitation-summary')).toContainText(organization)
      await expect(visitor.page.getByTestId('invitation-status')).toHaveText(
        'This invitation was cancelled. Ask for a new one if you still want to join.',
      )
      await expect(visitor.page.getByRole('link', { name: 'Create an account' })).toHaveCount(0)
      await expect(visitor.page.getByRole('button', { name: 'Accept' })).toHaveCount(0)
      await visitor.context.close()
    })

    test('someone signed in with another address is told whom it is for', async ({ page, browser }) => {
      const owner = await signUpNewAccount(page)
      await visit(page, '/en/console')
      const organization = `Addressed Co ${uniqueId()}`
      await createOrganization(page, organization)
      const invited = `invited${uniqueId()}@example.com`
      await inviteByEmail(page, invited)
      const link = await invitationLink(invited, organization, owner.name)

      const other = await signedOutBrowser(browser)
      const stranger = await signUpNewAccount(other.page)
      const response = await visit(other.page, link)
      expect(response?.status()).toBe(200)
      await expect(other.page.getByTestId('invitation-summary')).toContainText(organization)
      await expect(other.page.getByTestId('invitation-status')).toHaveText(
        `This invitation is for ${invited}, but you are signed in as ${stranger.email}.`,
      )
      await expect(other.page.getByRole('button', { name: 'Accept' })).toHaveCount(0)
      await expect(other.page.getByRole('link', { name: 'Sign in with another account' })).toHaveAttribute(
        'href',
        `/en/sign-in?redirect=${encodeURIComponent(new URL(link).pathname)}`,
      )
      // Nothing was joined: the stranger still has only their own workspace.
      await visit(other.page, '/en/console')
      await organizationSwitcher(other.page).click()
      await expect(other.page.getByTestId('organization-option')).toHaveCount(1)
      await other.context.close()
    })

    test('declining says so, and the link then says it was declined', async ({ page, browser }) => {
      const owner = await signUpNewAccount(page)
      await visit(page, '/en/console')
      const organization = `Declined Co ${uniqueId()}`
      await createOrganization(page, organization)
      const invitee = newAccount({ email: `decliner${uniqueId()}@example.com` })
      await inviteByEmail(page, invitee.email)
      const link = await invitationLink(invitee.email, organization, owner.name)

      const other = await signedOutBrowser(browser)
      await visit(other.page, link)
      await other.page.getByRole('link', { name: 'Create an account' }).click()
      await fillSignUp(other.page, invitee)
      await expect(other.page).toHaveURL(/\/en\/accept-invitation\//)
      await other.page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
      await other.page.getByRole('button', { name: 'Decline' }).click()
      await expect(other.page.getByTestId('invitation-status')).toHaveText('You declined the invitation.')
      await visit(other.page, link)
      await expect(other.page.getByTestId('invitation-status')).toHaveText('This invitation was declined.')
      await other.context.close()

      // The owner no longer sees it waiting.
      await visit(page, '/en/console/organization/invitations')
      await expect(page.getByTestId('invitation-row').filter({ hasText: invitee.email })).toHaveCount(0)
    })

    test('a made-up or malformed id is an unknown invitation, on a page that works', async ({ page }) => {
      for (const id of [uniqueId(), 'x'.repeat(150), 'no%20such%20invitation']) {
        const response = await visit(page, `/en/accept-invitation/${id}`)
        expect(response?.status(), id).toBe(200)
        await expect(page.getByTestId('invitation-status')).toHaveText(
          'This invitation does not exist. Check the link in the email, or ask for a new invitation.',
        )
      }
    })
  })
})
