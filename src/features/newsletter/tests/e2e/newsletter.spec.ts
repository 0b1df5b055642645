import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

test.describe('the footer’s newsletter form', () => {
  test('says why an address is refused, in the page language, and accepts a good one', async ({ page }) => {
    await visit(page, '/zh/')
    const email = page.getByLabel('获取产品动态')
    await email.fill('not-an-email')
    await page.getByRole('button', { name: '订阅' }).click()
    await expect(page.getByRole('alert')).toHaveText('邮箱格式不正确')
    await email.fill(`reader-${Date.now()}@example.com`)
    await page.getByRole('button', { name: '订阅' }).click()
    await expect(page.getByText('谢谢！你已成功订阅。')).toBeVisible()
    await expect(page.getByRole('alert')).toHaveCount(0)
    await expect(email).toHaveValue('')
  })
})
