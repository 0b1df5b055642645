import type { Locator, Page } from '@playwright/test'
import { newAccount, signUpNewAccount, type TestAccount, uniqueId } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'
import { allEmails, waitForEmail } from './mailbox'
import { createOrganization, switcher } from './organization-switcher'

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' }).first()
const memberRow = (page: Page, name: string) => page.getByTestId('member-row').filter({ hasText: name })

/**
 * On the invitation page an unconfirmed account asks for the confirmation link, opens it from the mailbox, and is back
 * on the invitation page with its address confirmed (only the address's owner may answer an invitation).
 */
async function confirmAddressFromInvitationPage(page: Page, account: TestAccount, button: string, locale: string) {
  await page.getByRole('button', { name: button }).click()
  const returnsHere = `callbackURL=/${locale}/accept-invitation/`
  let link: string | undefined
  await expect
    .poll(
      () => {
        link = allEmails()
          .filter((email) => email.to.includes(account.email))
          .flatMap((email) => email.links)
          .find((url) => decodeURIComponent(url).includes(returnsHere))
        return Boolean(link)
      },
      { message: `a confirmation link for ${account.email} back to the invitation`, timeout: 15_000 },
    )
    .toBe(true)
  await visit(page, link ?? '')
  await expect(page).toHaveURL(new RegExp(`/${locale}/accept-invitation/`))
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
}

/** Signs up through the Chinese form and waits for the console's Dashboard. */
async function signUpInChinese(page: Page, account: TestAccount) {
  await page.getByLabel('姓名', { exact: true }).fill(account.name)
  await page.getByLabel('邮箱', { exact: true }).fill(account.email)
  await page.getByLabel('密码', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: '创建账号' }).click()
}

/** Presses Tab until `target` has the focus: proves it is reachable from the keyboard, in the page's own order. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((element) => element === document.activeElement)) return
  }
  throw new Error(`not reached after ${limit} presses of Tab`)
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement)

test.describe('organizations', () => {
  test('an invitee joins through the emailed link, gets roles and a team, and switches back to their workspace', async ({
    page,
    browser,
  }) => {
    // One story across two browsers: about 30 s on a busy 2-core machine.
    test.slow()
    const owner = await signUpNewAccount(page)
    await visit(page, '/en/console')
    await expect(switcher(page)).toContainText(`${owner.name}'s workspace`)
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()

    const organization = `Acme ${uniqueId()}`
    await createOrganization(page, organization)

    // A team and a custom role to hand out later.
    await visit(page, '/en/console/organization/teams')
    await page.getByRole('form', { name: 'Create team' }).getByLabel('Team name').fill('Research')
    await page.getByRole('form', { name: 'Create team' }).getByRole('button', { name: 'Create team' }).click()
    await expect(page.getByTestId('team-card').filter({ hasText: 'Research' })).toBeVisible()

    await visit(page, '/en/console/organization/roles')
    await page.getByRole('button', { name: 'Create role' }).click()
    const roleForm = page.getByRole('form', { name: 'Create role' })
    await roleForm.getByLabel('Role name').fill('editor')
    await roleForm.locator('fieldset', { hasText: 'Teams' }).getByLabel('update', { exact: true }).check()
    await roleForm.getByRole('button', { name: 'Save' }).click()
    // Named beside Owner and Admin as a name, not as the lowercase slug it is stored as.
    await expect(page.getByTestId('custom-roles')).toContainText('Editor')

    // The invitation, by email.
    const invitee = newAccount({
      name: 'Katherine Johnson',
      email: `katherine${uniqueId()}@example.com`,
    })
    await visit(page, '/en/console/organization/invitations')
    const inviteForm = page.getByRole('form', { name: 'Invite someone' })
    await inviteForm.getByLabel('Email', { exact: true }).fill(invitee.email)
    await inviteForm.getByRole('button', { name: 'Send invitation' }).click()
    await expect(page.getByTestId('invitation-row').filter({ hasText: invitee.email })).toBeVisible()

    const email = await waitForEmail(invitee.email, {
      subject: new RegExp(`invited you to ${organization}`),
    })
    expect(email.text).toContain(`${owner.name} invited you to join ${organization}`)
    const link = email.links.find((url) => url.includes('/en/accept-invitation/'))
    expect(link, 'the email links to the accept page').toBeTruthy()

    // The invitee, signed out in a browser of their own, signs up and comes back to accept.
    const inviteeContext = await browser.newContext()
    const inviteePage = await inviteeContext.newPage()
    await visit(inviteePage, link ?? '')
    await expect(inviteePage.getByTestId('invitation-summary')).toContainText(
      `${owner.name} invited you to join ${organization} as Member.`,
    )
    await inviteePage.getByRole('link', { name: 'Create an account' }).click()
    await expect(inviteePage).toHaveURL(/\/en\/sign-up\?redirect=/)
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await inviteePage.getByLabel('Name', { exact: true }).fill(invitee.name)
    // The invitation knows the address: it is filled in.
    await expect(inviteePage.getByLabel('Email', { exact: true })).toHaveValue(invitee.email)
    await inviteePage.getByLabel('Password', { exact: true }).fill(invitee.password)
    await inviteePage.getByRole('button', { name: 'Create account' }).click()
    await expect(inviteePage).toHaveURL(/\/en\/accept-invitation\//)
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(inviteePage.getByTestId('invitation-status')).toContainText(`Confirm that ${invitee.email} is yours`)
    await expect(inviteePage.getByRole('button', { name: 'Accept' })).toHaveCount(0)
    await confirmAddressFromInvitationPage(inviteePage, invitee, 'Email me the confirmation link', 'en')
    await inviteePage.getByRole('button', { name: 'Accept' }).click()
    await expect(inviteePage).toHaveURL(/\/en\/console$/)
    await expect(switcher(inviteePage)).toContainText(organization)
    // A member, and not an app admin: no Configuration or Users, no invitations to manage.
    await expect(nav(inviteePage).getByRole('link', { name: 'Members' })).toBeVisible()
    await expect(nav(inviteePage).getByRole('link', { name: 'Configuration' })).toHaveCount(0)
    await expect(nav(inviteePage).getByRole('link', { name: 'Users' })).toHaveCount(0)
    await expect(nav(inviteePage).getByRole('link', { name: 'Invitations' })).toHaveCount(0)
    await visit(inviteePage, '/en/console/organization/members')
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('Member')
    // The activity log is for owners and admins: a member who opens it stays in the console and learns who can grant it.
    expect((await visit(inviteePage, '/en/console/organization/activity'))?.status()).toBe(404)
    const noAccess = inviteePage.getByTestId('console-no-access')
    await expect(noAccess.getByRole('heading', { name: "You don't have access to Activity" })).toBeVisible()
    await expect(noAccess).toContainText(`Your role in ${organization} does not include this page.`)
    await expect(noAccess).toContainText('An owner or an admin of the organization can give you a role')
    await noAccess.getByRole('link', { name: 'Back to the Dashboard' }).click()
    await expect(inviteePage).toHaveURL(/\/en\/console$/)
    await visit(inviteePage, '/en/console/organization/members')

    // The owner makes them an admin and an editor: after a reload the invitee sees it, and may invite.
    await visit(page, '/en/console/organization/members')
    // A click while the list is refreshed after the page load may not open the menu: a person clicks again.
    await expect(async () => {
      await page.getByRole('button', { name: `Actions for ${invitee.name}` }).click()
      await expect(page.getByRole('menuitem', { name: 'Change role' })).toBeVisible({ timeout: 2_000 })
    }).toPass()
    await page.getByRole('menuitem', { name: 'Change role' }).click()
    const roles = page.getByRole('form', { name: 'Change role' })
    await roles.getByLabel('Admin', { exact: true }).check()
    await roles.getByLabel('Editor', { exact: true }).check()
    await roles.getByLabel('Member', { exact: true }).uncheck()
    await roles.getByRole('button', { name: 'Save' }).click()
    await expect(memberRow(page, invitee.name).getByTestId('member-role')).toHaveText('Admin, Editor')

    await inviteePage.reload()
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('Admin, Editor')
    await expect(nav(inviteePage).getByRole('link', { name: 'Invitations' })).toBeVisible()

    // The owner puts them in the team; the invitee finds it among their teams.
    await visit(page, '/en/console/organization/teams')
    const research = page.getByTestId('team-card').filter({ hasText: 'Research' })
    await research.getByRole('combobox').selectOption({ label: `${invitee.name} (${invitee.email})` })
    await research.getByRole('button', { name: 'Add to team' }).click()
    await expect(research.getByRole('list', { name: 'Members of Research' })).toContainText(invitee.name)
    await visit(inviteePage, '/en/console/organization/teams')
    await expect(inviteePage.getByTestId('your-teams')).toContainText('Research')

    // The invitee switches back to their own workspace, where they are alone.
    await switcher(inviteePage).click()
    await inviteePage.getByRole('menuitem', { name: `${invitee.name}'s workspace` }).click()
    await expect(switcher(inviteePage)).toContainText(`${invitee.name}'s workspace`)
    await visit(inviteePage, '/en/console/organization/members')
    await expect(inviteePage.getByTestId('member-row')).toHaveCount(1)

    // The owner's activity log tells the story.
    await visit(page, '/en/console/organization/activity')
    await expect(page.getByTestId('activity-list')).toContainText(`${owner.name} invited ${invitee.email} as Member`)
    await expect(page.getByTestId('activity-list')).toContainText(`${invitee.name} joined as Member`)
    await inviteeContext.close()
  })

  test('in Chinese: the invitation is written, emailed and accepted in Chinese', async ({ page, browser }) => {
    test.slow()
    const owner = newAccount({ name: '钱学森' })
    await visit(page, '/zh/sign-up')
    await signUpInChinese(page, owner)
    await expect(page).toHaveURL(/\/zh\/console$/)
    await expect(switcher(page)).toContainText('钱学森的工作区')

    const invitee = newAccount({
      name: '屠呦呦',
      email: `tu${uniqueId()}@example.com`,
    })
    await visit(page, '/zh/console/organization/invitations')
    const inviteForm = page.getByRole('form', { name: '邀请成员' })
    await expect(inviteForm.getByLabel('邮件语言')).toHaveValue('zh')
    await inviteForm.getByLabel('邮箱', { exact: true }).fill(invitee.email)
    await inviteForm.getByRole('button', { name: '发送邀请' }).click()
    await expect(page.getByTestId('invitation-row').filter({ hasText: invitee.email })).toBeVisible()

    const email = await waitForEmail(invitee.email, {
      subject: /钱学森 邀请你加入/,
    })
    expect(email.subject).toContain('钱学森的工作区')
    expect(email.text).toContain('钱学森 邀请你以成员身份加入')
    const link = email.links.find((url) => url.includes('/zh/accept-invitation/'))
    expect(link, 'the email links to the Chinese accept page').toBeTruthy()

    const inviteeContext = await browser.newContext()
    const inviteePage = await inviteeContext.newPage()
    await visit(inviteePage, link ?? '')
    await expect(inviteePage.getByTestId('invitation-summary')).toContainText(
      '钱学森 邀请你以成员身份加入 钱学森的工作区。',
    )
    await inviteePage.getByRole('link', { name: '创建账户' }).click()
    await expect(inviteePage).toHaveURL(/\/zh\/sign-up\?redirect=/)
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await signUpInChinese(inviteePage, invitee)
    await expect(inviteePage).toHaveURL(/\/zh\/accept-invitation\//)
    await inviteePage.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await confirmAddressFromInvitationPage(inviteePage, invitee, '给我发送确认链接', 'zh')
    await inviteePage.getByRole('button', { name: '接受' }).click()
    await expect(inviteePage).toHaveURL(/\/zh\/console$/)
    await expect(switcher(inviteePage)).toContainText('钱学森的工作区')
    await visit(inviteePage, '/zh/console/organization/members')
    await expect(memberRow(inviteePage, invitee.name).getByTestId('member-role')).toHaveText('成员')
    await expect(memberRow(inviteePage, owner.name).getByTestId('member-role')).toHaveText('所有者')
    expect((await visit(inviteePage, '/zh/console/organization/activity'))?.status()).toBe(404)
    await expect(
      inviteePage.getByTestId('console-no-access').getByRole('heading', { name: '你没有访问“动态”的权限' }),
    ).toBeVisible()
    await expect(inviteePage.getByTestId('console-no-access')).toContainText('组织的所有者或管理员可以在“成员”中')

    await visit(page, '/zh/console/organization/activity')
    await expect(page.getByTestId('activity-list')).toContainText(`钱学森 邀请 ${invitee.email} 成为成员`)
    await expect(page.getByTestId('activity-list')).toContainText('屠呦呦 以成员身份加入')
    await inviteeContext.close()
  })

  test('the console works from the keyboard: switcher, navigation, and the phone drawer', async ({ page }) => {
    const account = await signUpNewAccount(page)
    const organization = `Keys ${uniqueId()}`
    await visit(page, '/en/console')
    await createOrganization(page, organization)

    // Back to the personal workspace, with Tab, arrows and Enter only.
    await visit(page, '/en/console')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await tabTo(page, switcher(page))
    await page.keyboard.press('Enter')
    const workspace = page.getByRole('menuitem', {
      name: `${account.name}'s workspace`,
    })
    await expect(workspace).toBeVisible()
    for (let presses = 0; presses < 5 && !(await isFocused(workspace)); presses++)
      await page.keyboard.press('ArrowDown')
    expect(await isFocused(workspace), 'the arrows reach the other organization').toBe(true)
    await page.keyboard.press('Enter')
    await expect(switcher(page)).toContainText(`${account.name}'s workspace`)

    // A section of the sidebar, by keyboard.
    const members = nav(page).getByRole('link', { name: 'Members' })
    await tabTo(page, members)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/en\/console\/organization\/members$/)
    await expect(page.getByTestId('member-row')).toHaveCount(1)

    // On a phone: the drawer opens from the keyboard, keeps the focus inside, and gives it back on Escape.
    await page.setViewportSize({ width: 360, height: 740 })
    await visit(page, '/en/console')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const openMenu = page.getByRole('button', { name: 'Open the menu' })
    await tabTo(page, openMenu)
    await page.keyboard.press('Enter')
    const drawer = page.getByRole('dialog')
    await expect(drawer).toBeVisible()
    for (let presses = 0; presses < 12; presses++) {
      await page.keyboard.press('Tab')
      expect(
        await drawer.evaluate((element) => element.contains(document.activeElement)),
        'focus stays in the drawer',
      ).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(drawer).toHaveCount(0)
    expect(await isFocused(openMenu), 'focus returns to the menu button').toBe(true)
  })

  test('an unknown invitation says so, with a page that works', async ({ page }) => {
    const response = await visit(page, `/en/accept-invitation/${uniqueId()}`)
    expect(response?.status()).toBe(200)
    await expect(page.getByTestId('invitation-status')).toHaveText(
      'This invitation does not exist. Check the link in the email, or ask for a new invitation.',
    )
  })

  test('on a phone in Chinese: the personal workspace, the drawer, and no sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    // An email longer than a card is wide: its line on the Members card wraps instead of widening the page.
    const short = newAccount({ name: '林徽因' })
    const account = { ...short, email: `lin-huiyin-architect-of-beijing-${short.email}` }
    await visit(page, '/zh/sign-up')
    await page.getByLabel('姓名', { exact: true }).fill(account.name)
    await page.getByLabel('邮箱', { exact: true }).fill(account.email)
    await page.getByLabel('密码', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: '创建账号' }).click()
    await expect(page).toHaveURL(/\/zh\/console$/)
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(switcher(page)).toContainText('林徽因的工作区')

    await page.getByRole('button', { name: '打开菜单' }).click()
    await page.getByRole('dialog').getByRole('link', { name: '成员' }).click()
    await expect(page).toHaveURL(/\/zh\/console\/organization\/members$/)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByRole('navigation', { name: '面包屑导航' })).toHaveText(/控制台.*组织.*成员/)
    await expect(page.getByTestId('member-row')).toContainText('所有者')
    for (const path of ['/zh/console', '/zh/console/organization/members', '/zh/console/organization/invitations']) {
      await visit(page, path)
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(width, `${path} fits 360 px`).toBeLessThanOrEqual(360)
    }
  })

  test.describe('app-admin sections', () => {
    test.use({ expectedConsoleErrors: documentStatusError(404) })

    test('Configuration and Users tell an account that is not an app admin who can open them, inside the console', async ({
      page,
      browser,
    }) => {
      // Two sign-ups: whoever was first on this database is an app admin, the second account certainly is not.
      const first = await browser.newContext()
      await signUpNewAccount(await first.newPage())
      await first.close()
      await signUpNewAccount(page)
      await visit(page, '/en/console')
      await expect(nav(page).getByRole('link', { name: 'Account' })).toBeVisible()
      await expect(nav(page).getByRole('link', { name: 'Configuration' })).toHaveCount(0)
      await expect(nav(page).getByRole('link', { name: 'Users' })).toHaveCount(0)
      await expect(nav(page).getByRole('link', { name: 'System' })).toHaveCount(0)
      for (const [path, heading] of [
        ['/en/console/configuration', "You don't have access to Configuration"],
        ['/en/console/users', "You don't have access to Users"],
        ['/en/console/system', "You don't have access to System"],
        ['/zh/console/users', '你没有访问“用户”的权限'],
      ] as const) {
        const response = await visit(page, path)
        expect(response?.status(), path).toBe(404)
        const screen = page.getByTestId('console-no-access')
        await expect(screen.getByRole('heading', { name: heading })).toBeVisible()
        await expect(screen).toContainText(path.startsWith('/zh') ? '应用管理员' : 'An app admin can make you one')
        // Still in the console: its navigation is there to go elsewhere.
        const account = path.startsWith('/zh') ? '账号' : 'Account'
        await expect(page.getByRole('navigation').getByRole('link', { name: account }).first()).toBeVisible()
      }
    })
  })
})
