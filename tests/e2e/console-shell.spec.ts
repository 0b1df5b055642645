import type { Page } from '@playwright/test'
import { landInConsole, newAccount, signUpNewAccount, uniqueId } from './accounts'
import { consoleNav, createOrganization, expectActiveOrganization, organizationSwitcher } from './console'
import { documentStatusError, expect, test, visit } from './fixtures'

const breadcrumbs = (page: Page, name = 'Breadcrumbs') => page.getByRole('navigation', { name }).getByRole('listitem')

test.describe('the console shell', () => {
  test('on a phone: no sideways scrolling, and the drawer opens, navigates and closes', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await signUpNewAccount(page)
    for (const path of ['/en/console', '/en/console/organization/members', '/en/console/organization/invitations']) {
      await visit(page, path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(width, `${path} fits 360 px`).toBeLessThanOrEqual(360)
    }

    // The sidebar is not there on a phone; the menu button opens the same sections in a drawer.
    await visit(page, '/en/console')
    await expect(consoleNav(page)).toHaveCount(0)
    await page.getByRole('button', { name: 'Open the menu' }).click()
    const drawer = page.getByRole('dialog')
    await expect(drawer.getByRole('navigation', { name: 'Console' })).toBeVisible()
    await drawer.getByRole('link', { name: 'Members' }).click()
    await expect(page).toHaveURL(/\/en\/console\/organization\/members$/)
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible()
    // On a phone the role sits under the name, not in the hidden column.
    await expect(page.getByTestId('member-role-compact')).toHaveText('Owner')
  })

  test('breadcrumbs say where the page sits, and lead back up', async ({ page }) => {
    await signUpNewAccount(page)
    await visit(page, '/en/console/organization/members')
    await expect(breadcrumbs(page)).toHaveText(['Console', 'Organization', 'Members'])
    await expect(page.getByRole('navigation', { name: 'Breadcrumbs' }).locator('[aria-current="page"]')).toHaveText(
      'Members',
    )
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Organization' }).click()
    await expect(page).toHaveURL(/\/en\/console\/organization\/?$/)
    await expect(breadcrumbs(page)).toHaveText(['Console', 'Organization', 'Settings'])
    await expect(page.getByRole('heading', { name: 'Organization settings', level: 1 })).toBeVisible()

    await visit(page, '/en/console')
    await expect(breadcrumbs(page)).toHaveText(['Console', 'Dashboard'])
  })

  test('the keyboard reaches the organization switcher and opens it', async ({ page }) => {
    const account = await signUpNewAccount(page)
    await visit(page, '/en/console')
    const switcher = organizationSwitcher(page)
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab')
      if (await switcher.evaluate((element) => element === document.activeElement)) break
    }
    await expect(switcher, 'Tab reaches the switcher').toBeFocused()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: `${account.name}'s workspace` })).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: 'Create organization' })).toBeVisible()
    // Escape closes it and gives the focus back.
    await page.keyboard.press('Escape')
    await expect(menu).toHaveCount(0)
    await expect(switcher).toBeFocused()
  })

  test('in Chinese: the personal workspace, a new organization, and its owner', async ({ page }) => {
    const account = newAccount({ name: '梁思成' })
    await visit(page, '/zh/sign-up')
    await page.getByLabel('姓名', { exact: true }).fill(account.name)
    await page.getByLabel('邮箱', { exact: true }).fill(account.email)
    await page.getByLabel('密码', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: '创建账号' }).click()
    await landInConsole(page, 'zh')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(organizationSwitcher(page)).toContainText('梁思成的工作区')
    await expect(organizationSwitcher(page)).toHaveAccessibleName(/梁思成的工作区/)

    // A Chinese name has no Latin letters to derive the slug from: it is left to the person.
    await organizationSwitcher(page).click()
    await page.getByRole('menuitem', { name: '创建组织' }).click()
    const form = page.getByRole('form', { name: '创建组织' })
    await form.getByLabel('名称', { exact: true }).fill('营造学社')
    await expect(form.getByLabel('短名称', { exact: true })).toHaveValue('')
    await form.getByLabel('短名称', { exact: true }).fill(`yingzao-${uniqueId()}`)
    await form.getByRole('button', { name: '创建', exact: true }).click()
    await expect(page.getByText('已创建 营造学社，并已切换到该组织。')).toBeVisible()
    await expect(organizationSwitcher(page)).toContainText('营造学社')

    await visit(page, '/zh/console/organization/members')
    await expect(breadcrumbs(page, '面包屑导航')).toHaveText(['控制台', '组织', '成员'])
    await expect(page.getByTestId('member-row')).toHaveCount(1)
    await expect(page.getByTestId('member-row').getByTestId('member-role')).toHaveText('所有者')
    await expect(page.getByTestId('member-row')).toContainText(`${account.name}（你）`)
  })

  test('deleting an organization takes its typed name, then the console falls back to another', async ({ page }) => {
    const account = await signUpNewAccount(page)
    await visit(page, '/en/console')
    const organization = `Doomed Works ${uniqueId()}`
    await createOrganization(page, organization)
    await visit(page, '/en/console/organization')
    await page.getByRole('button', { name: 'Delete organization' }).click()
    const dialog = page.getByRole('alertdialog', { name: `Delete ${organization} for good?` })
    const confirm = dialog.getByRole('button', { name: 'Delete for good' })
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel(`Type ${organization} to confirm`).fill('Doomed Works')
    await expect(confirm).toBeDisabled()
    await dialog.getByLabel(`Type ${organization} to confirm`).fill(organization)
    await confirm.click()
    await expect(page.getByText(`${organization} was deleted.`)).toBeVisible()
    await landInConsole(page)
    await expectActiveOrganization(page, `${account.name}'s workspace`)

    // Gone for good: not in the switcher, even after a fresh page load.
    await visit(page, '/en/console/organization')
    await expectActiveOrganization(page, `${account.name}'s workspace`)
    await expect(page.getByTestId('organization-name')).toHaveText(`${account.name}'s workspace`)
    await organizationSwitcher(page).click()
    await expect(page.getByTestId('organization-option')).toHaveCount(1)
    await expect(page.getByRole('menu')).not.toContainText(organization)
  })

  test.describe('refused requests', () => {
    // The browser reports the refused call.
    test.use({ expectedConsoleErrors: documentStatusError(400, /status of 403/) })

    test('the only owner cannot leave, and is told why', async ({ page }) => {
      const account = await signUpNewAccount(page)
      await visit(page, '/en/console/organization')
      await page.getByRole('button', { name: 'Leave', exact: true }).click()
      const dialog = page.getByRole('alertdialog', { name: `Leave ${account.name}'s workspace?` })
      await dialog.getByRole('button', { name: 'Leave', exact: true }).click()
      await expect(
        page.locator('[data-sonner-toast][data-type="error"]').filter({
          hasText: 'You are the only owner. Transfer ownership before leaving.',
        }),
      ).toBeVisible()
      // Still a member, still the owner.
      await visit(page, '/en/console/organization')
      await expectActiveOrganization(page, `${account.name}'s workspace`)
      await expect(page.getByTestId('organization-role')).toContainText('Your role: Owner')
    })
  })
})
