import { signInAsAppAdmin } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

test.describe('billing on Console → System', () => {
  for (const { lang, words } of [
    { lang: 'en', words: { noPayments: 'No payment event is failing.' } },
    { lang: 'zh', words: { noPayments: '没有失败的支付事件。' } },
  ] as const) {
    test(`(${lang}) an app admin sees the failing payment events and the daily reconciliation`, async ({ page }) => {
      await signInAsAppAdmin(page, lang)
      await visit(page, `/${lang}/console/system`)
      await expect(page.getByText(words.noPayments)).toBeVisible()
      await expect(page.getByTestId('system-queues')).toContainText('billing-reconcile')
    })
  }
})
