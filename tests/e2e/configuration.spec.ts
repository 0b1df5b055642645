import { signInAsAppAdmin } from './accounts'
import { documentStatusError, expect, test, visit } from './fixtures'

/** Signs in as the e2e server's app admin, by email and password, and opens Configuration. */
async function openConfigurationAsAdmin(page: import('@playwright/test').Page, lang: 'en' | 'zh' = 'en') {
  await signInAsAppAdmin(page, lang)
  await visit(page, `/${lang}/console/configuration`)
}

// These tests share one server with every other test, so they change nothing others rely on: refusals, a
// confirmation declined, and a save that changes nothing.
test.describe('Configuration', () => {
  test.use({ expectedConsoleErrors: documentStatusError(400) })

  test('an app admin sees every setting, gets refusals beside the field, and is asked before losing their own method', async ({
    page,
  }) => {
    await openConfigurationAsAdmin(page)
    const form = page.getByRole('form', { name: 'Configuration' })
    await expect(form.getByLabel('Product name')).toHaveValue('Hatch')
    await expect(form.getByLabel('Anyone may create an account')).toBeChecked()

    await form.getByLabel('Product name').fill('   ')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByTestId('error-productName')).toHaveText('Required')
    await form.getByLabel('Product name').fill('Hatch')

    // The admin signed in with email and password: switching that off asks first, and "Keep it on" changes nothing.
    await form.getByLabel('Email and password').uncheck()
    await form.getByRole('button', { name: 'Save settings' }).click()
    const confirm = page.getByRole('alertdialog')
    await expect(confirm).toContainText('You signed in with “Email and password”.')
    await confirm.getByRole('button', { name: 'Keep it on' }).click()
    await page.reload()
    await expect(page.getByRole('form', { name: 'Configuration' }).getByLabel('Email and password')).toBeChecked()

    // Saving what is stored changes nothing and records nothing.
    await page.getByRole('form', { name: 'Configuration' }).getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByText('Nothing changed.')).toBeVisible()
    await expect(page.getByTestId('config-change')).toHaveCount(0)
  })

  test('in Chinese, with every switch named', async ({ page }) => {
    await openConfigurationAsAdmin(page, 'zh')
    const form = page.getByRole('form', { name: '配置' })
    await expect(form.getByLabel('邮箱和密码')).toBeChecked()
    await expect(form.getByLabel('允许任何人创建账户')).toBeChecked()
    await expect(page.getByRole('heading', { name: '更改记录' })).toBeVisible()
  })
})
