import type { Page } from '@playwright/test'
import { signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

const hydrated = (page: Page) => page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })

/** From the checkout page to the built-in provider's page; answers that page's address. */
async function openProCheckout(page: Page, lang: string, continueLabel: string) {
  await visit(page, `/${lang}/checkout?plan=pro&interval=monthly`)
  await hydrated(page)
  await page.getByRole('button', { name: continueLabel }).click()
  await expect(page).toHaveURL(/\/pay\/lcs_/)
  await hydrated(page)
  return page.url()
}

/** The day a period that starts today ends, as the page writes it. */
const inOneMonth = (intlLocale: string) => {
  const end = new Date()
  end.setUTCMonth(end.getUTCMonth() + 1)
  return new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium' }).format(end)
}

const languages = [
  {
    lang: 'en',
    intlLocale: 'en-US',
    words: {
      go: 'Continue to payment',
      pay: 'Pay $19',
      unfinished: 'Not finished',
      processing: 'Processing',
      ended: 'Canceled',
      paid: 'Paid',
      superseded: 'already has a subscription',
      cancel: 'Cancel at period end',
      cancelTitle: 'Cancel the subscription?',
      keep: 'Keep subscription',
      endsOn: 'Ends on',
      renewsOn: 'Renews on',
      resume: 'Resume subscription',
      explainer: 'Resume it to change plan or seats',
      review: 'Review change',
    },
  },
  {
    lang: 'zh',
    intlLocale: 'zh-CN',
    words: {
      go: '前往付款',
      pay: '支付 ¥129',
      unfinished: '未完成',
      processing: '处理中',
      ended: '已取消',
      paid: '已支付',
      superseded: '该组织已有订阅',
      cancel: '在本期结束时取消',
      cancelTitle: '取消订阅？',
      keep: '保留订阅',
      endsOn: '结束',
      renewsOn: '续费',
      resume: '恢复订阅',
      explainer: '恢复订阅后即可更改',
      review: '查看变更',
    },
  },
]

test.describe('billing when the organization moves on', () => {
  for (const { lang, intlLocale, words } of languages) {
    test(`(${lang}) a checkout left open ends when another one is paid, and its page refuses to start a second subscription`, async ({
      page,
    }) => {
      test.slow()
      await signUpNewAccount(page)
      const abandoned = await openProCheckout(page, lang, words.go)
      // The buyer walks away: the order is unfinished, not a payment on its way.
      await visit(page, `/${lang}/console/organization/billing`)
      await expect(page.getByTestId('order-status')).toHaveText([words.unfinished])
      await expect(page.getByTestId('billing-unfinished-checkout')).toHaveCount(1)

      // Later the organization pays for Pro through another checkout.
      await openProCheckout(page, lang, words.go)
      await page.getByRole('button', { name: words.pay }).click()
      await expect(page).toHaveURL(new RegExp(`/${lang}/my-orders\\?order=`))
      const paid = page.locator('[data-testid="order-row"][data-highlighted="true"]')
      await expect(paid.getByTestId('order-status')).toHaveText(words.paid)
      await expect(page.getByTestId('order-status')).toHaveText([words.paid, words.ended])
      await expect(page.getByTestId('billing-unfinished-checkout')).toHaveCount(0)
      await expect(page.getByText(words.processing, { exact: true })).toHaveCount(0)

      // The old checkout's page says why it cannot be paid, and offers no Pay button.
      await visit(page, abandoned)
      await hydrated(page)
      await expect(page.getByTestId('local-pay-superseded')).toContainText(words.superseded)
      await expect(page.getByRole('button', { name: words.pay })).toHaveCount(0)
    })

    test(`(${lang}) cancelling asks first, says what stops and when, and explains the hidden plan controls`, async ({
      page,
    }) => {
      test.slow()
      await signUpNewAccount(page)
      await openProCheckout(page, lang, words.go)
      await page.getByRole('button', { name: words.pay }).click()
      await expect(page).toHaveURL(new RegExp(`/${lang}/my-orders\\?order=`))
      await visit(page, `/${lang}/console/organization/billing`)
      await hydrated(page)

      await page.getByRole('button', { name: words.cancel }).click()
      const dialog = page.getByRole('alertdialog')
      await expect(dialog).toContainText(words.cancelTitle)
      await expect(dialog).toContainText(inOneMonth(intlLocale))
      // Keeping it changes nothing.
      await dialog.getByRole('button', { name: words.keep }).click()
      await expect(dialog).toHaveCount(0)
      await expect(page.getByTestId('billing-plan-renewal')).toContainText(words.renewsOn)

      await page.getByRole('button', { name: words.cancel }).click()
      await dialog.getByRole('button', { name: words.cancel }).click()
      await expect(page.getByTestId('billing-plan-renewal')).toContainText(words.endsOn)
      await expect(page.getByTestId('billing-ending-explainer')).toContainText(words.explainer)
      await expect(page.getByRole('button', { name: words.review })).toHaveCount(0)

      await page.getByRole('button', { name: words.resume }).click()
      await expect(page.getByTestId('billing-plan-renewal')).toContainText(words.renewsOn)
      await expect(page.getByTestId('billing-ending-explainer')).toHaveCount(0)
      await expect(page.getByRole('button', { name: words.review }).first()).toBeVisible()
    })
  }
})
