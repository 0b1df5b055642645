import { newAccount, signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { continueToPayment, startProCheckout } from '../../../../../tests/e2e/checkout'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'

test.describe('billing', () => {
  test('Choose Pro on the pricing section, sign up, pay, and the order shows paid', async ({ page }) => {
    test.slow()
    // A visitor chooses Pro on the pricing section and signs up on the way.
    await visit(page, '/en/#pricing')
    await expect(page.getByTestId('plan-free')).toContainText('Up to 3 members per organization')
    await page.getByTestId('plan-pro').getByRole('link', { name: 'Choose Pro' }).click()
    await expect(page).toHaveURL(/\/en\/sign-up\?redirect=/)
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const account = newAccount({ name: 'Bea Buyer' })
    await page.getByLabel('Name', { exact: true }).fill(account.name)
    await page.getByLabel('Email', { exact: true }).fill(account.email)
    await page.getByLabel('Password', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(page).toHaveURL(/\/en\/checkout\?plan=pro/)
    await expect(page.getByRole('heading', { name: 'Upgrade to Pro' })).toBeVisible()

    // Still on Free, as Billing says.
    await visit(page, '/en/console/organization/billing')
    await expect(page).toHaveURL(/\/en\/console\/organization\/billing$/)
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(page.getByTestId('billing-plan-name')).toHaveText('Free')
    await expect(page.getByText('No orders yet')).toBeVisible()

    // Upgrade, pay on the built-in provider's page, and come back to the orders.
    await page.getByRole('link', { name: 'Upgrade to Pro' }).click()
    await expect(page).toHaveURL(/\/en\/checkout\?plan=pro/)
    await continueToPayment(page)
    await expect(page.getByRole('note')).toContainText('no money moves')
    await expect(page.getByTestId('local-pay-amount')).toHaveText('$19')
    await page.getByRole('button', { name: 'Pay $19' }).click()
    await expect(page).toHaveURL(/\/en\/my-orders\?order=/)
    const order = page.locator('[data-testid="order-row"][data-highlighted="true"]')
    await expect(order.getByTestId('order-status')).toHaveText('Paid')
    await expect(order).toContainText('Pro · Monthly')
    await expect(order).toContainText('$19')
    await expect(page.getByTestId('billing-plan-name')).toHaveText('Pro · Monthly')
    await expect(page.getByTestId('billing-plan-renewal')).toContainText('Renews on')
    // The receipt is Hatch's own: the built-in provider has none.
    const receiptHref = (await order.getByRole('link', { name: 'View' }).getAttribute('href')) ?? ''
    expect(receiptHref).toMatch(/^\/en\/receipts\//)
    await visit(page, receiptHref)
    await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible()
    await expect(page.getByTestId('receipt-total')).toHaveText('$19')
    await expect(page.getByRole('note')).toContainText('no money moved')

    // Cancel at period end, then resume.
    await visit(page, '/en/console/organization/billing')
    await page.getByRole('button', { name: 'Cancel at period end' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel at period end' }).click()
    await expect(page.getByTestId('billing-plan-renewal')).toContainText('Ends on')
    await page.getByRole('button', { name: 'Resume subscription' }).click()
    await expect(page.getByTestId('billing-plan-renewal')).toContainText('Renews on')

    // The pricing section, reached from the header of another page, shows the customer their plan.
    await visit(page, '/en/my-orders')
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL(/\/en\/#pricing$/)
    await expect(page.getByTestId('plan-pro').getByTestId('current-plan')).toHaveText('Your plan')
    await expect(page.getByTestId('plan-pro').getByRole('link', { name: 'Manage billing' })).toBeVisible()
    await expect(page.getByTestId('plan-team').getByRole('link', { name: 'Switch in Billing' })).toBeVisible()
  })

  test('a cancelled or failed checkout returns to the pricing section and says so', async ({ page }) => {
    await signUpNewAccount(page)
    await startProCheckout(page)
    await page.getByRole('button', { name: 'Cancel and go back' }).click()
    await expect(page).toHaveURL(/\/en\/#pricing$/)
    await expect(page.getByText('Checkout canceled. You have not been charged.')).toBeVisible()

    await startProCheckout(page)
    await page.getByRole('button', { name: 'Make the payment fail' }).click()
    await expect(page).toHaveURL(/\/en\/#pricing$/)
    await expect(page.getByText(/^The payment failed\./)).toBeVisible()

    await visit(page, '/en/my-orders')
    await expect(page.getByTestId('order-status')).toHaveText(['Failed', 'Canceled'])
    await expect(page.getByTestId('billing-plan-name')).toHaveText('Free')
  })

  test('"pay later" shows the order processing until the payment event arrives', async ({ page }) => {
    await signUpNewAccount(page)
    await startProCheckout(page)
    await page.getByRole('button', { name: 'Pay later (settles in a few seconds)' }).click()
    await expect(page).toHaveURL(/\/en\/my-orders\?order=/)
    const order = page.locator('[data-testid="order-row"][data-highlighted="true"]')
    await expect(order.getByTestId('order-status')).toHaveText('Processing')
    await expect(page.getByTestId('billing-processing')).toBeVisible()
    await expect(order.getByTestId('order-status')).toHaveText('Paid', { timeout: 15_000 })
    await expect(page.getByTestId('billing-plan-name')).toHaveText('Pro · Monthly')
  })

  /** The day a period that starts today ends, as the page writes it. */
  const inOneMonth = (intlLocale: string) => {
    const end = new Date()
    end.setUTCMonth(end.getUTCMonth() + 1)
    return new Intl.DateTimeFormat(intlLocale, { dateStyle: 'medium' }).format(end)
  }

  for (const { lang, intlLocale, pay, words } of [
    {
      lang: 'en',
      intlLocale: 'en-US',
      pay: 'Pay $190',
      words: {
        choice: 'Team · Monthly',
        review: 'Review change',
        dueNow: 'Charged now',
        nothing: '$0',
        confirm: 'Confirm and pay $0',
        plan: 'Team · 2 seats · Monthly',
        renews: 'Renews on',
        order: 'Plan change',
      },
    },
    {
      lang: 'zh',
      intlLocale: 'zh-CN',
      pay: '支付 ¥1,290',
      words: {
        choice: '团队版 · 按月',
        review: '查看变更',
        dueNow: '现在扣款',
        nothing: '¥0',
        confirm: '确认并支付 ¥0',
        plan: '团队版 · 2 个席位 · 按月',
        renews: '续费',
        order: '套餐变更',
      },
    },
  ]) {
    test(`(${lang}) Pro yearly → Team monthly: shown and confirmed first, recorded as an order, renewing monthly`, async ({
      page,
    }) => {
      await signUpNewAccount(page)
      await visit(page, `/${lang}/checkout?plan=pro&interval=yearly`)
      await continueToPayment(page, lang === 'zh' ? '前往付款' : 'Continue to payment')
      await page.getByRole('button', { name: pay }).click()
      await expect(page).toHaveURL(new RegExp(`/${lang}/my-orders\\?order=`))
      await visit(page, `/${lang}/console/organization/billing`)
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
      await page.getByRole('combobox').first().selectOption({ label: words.choice })
      await page.getByRole('button', { name: words.review }).first().click()
      const summary = page.getByTestId('plan-change-summary')
      await expect(summary).toContainText(words.dueNow)
      await expect(summary).toContainText(inOneMonth(intlLocale))
      // Nothing has changed until it is confirmed.
      await expect(page.getByTestId('billing-plan-name')).not.toHaveText(words.plan)
      await page.getByRole('button', { name: words.confirm }).click()
      await expect(page.getByTestId('billing-plan-name')).toHaveText(words.plan)
      await expect(page.getByTestId('billing-plan-renewal')).toContainText(words.renews)
      await expect(page.getByTestId('billing-plan-renewal')).toContainText(inOneMonth(intlLocale))
      await expect(page.getByTestId('orders-list')).toContainText(words.order)
      await expect(page.getByTestId('orders-list')).toContainText(words.nothing)
    })
  }

  for (const { lang, words } of [
    {
      lang: 'en',
      words: {
        go: 'Continue to payment',
        note: 'is not finished',
        resume: 'Resume checkout',
        pay: 'Pay $19',
        paid: 'Paid',
      },
    },
    { lang: 'zh', words: { go: '前往付款', note: '尚未完成', resume: '继续结账', pay: '支付 ¥129', paid: '已支付' } },
  ]) {
    test(`(${lang}) a checkout left unfinished is offered to resume, not shown as processing for good`, async ({
      page,
    }) => {
      await signUpNewAccount(page)
      await visit(page, `/${lang}/checkout?plan=pro&interval=monthly`)
      await continueToPayment(page, words.go)
      // The buyer walks away from the payment page.
      await visit(page, `/${lang}/console/organization/billing`)
      const unfinished = page.getByTestId('billing-unfinished-checkout')
      await expect(unfinished).toContainText(words.note)
      await expect(page.getByTestId('billing-processing')).toHaveCount(0)
      await unfinished.getByRole('link', { name: words.resume }).click()
      await expect(page).toHaveURL(/\/pay\/lcs_/)
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
      await page.getByRole('button', { name: words.pay }).click()
      const order = page.locator('[data-testid="order-row"][data-highlighted="true"]')
      await expect(order.getByTestId('order-status')).toHaveText(words.paid)
      await expect(page.getByTestId('billing-unfinished-checkout')).toHaveCount(0)
    })
  }

  test('in Chinese, prices are in yuan from the pricing section to the receipt', async ({ page }) => {
    await signUpNewAccount(page)
    await visit(page, '/zh/#pricing')
    await expect(page.getByTestId('price-pro')).toHaveText('¥129')
    await page.getByTestId('plan-pro').getByRole('link', { name: '选择专业版' }).click()
    await expect(page).toHaveURL(/\/zh\/checkout\?plan=pro/)
    await expect(page.getByTestId('checkout-total')).toHaveText('每月 ¥129')
    await continueToPayment(page, '前往付款')
    await expect(page.getByTestId('local-pay-amount')).toHaveText('¥129')
    await page.getByRole('button', { name: '支付 ¥129' }).click()
    await expect(page).toHaveURL(/\/zh\/my-orders\?order=/)
    const order = page.locator('[data-testid="order-row"][data-highlighted="true"]')
    await expect(order.getByTestId('order-status')).toHaveText('已支付')
    await expect(order).toContainText('¥129')
    await expect(page.getByTestId('billing-plan-name')).toHaveText('专业版 · 按月')
    await page.getByRole('banner').getByRole('link', { name: '价格' }).click()
    await expect(page).toHaveURL(/\/zh\/#pricing$/)
    await expect(page.getByTestId('plan-pro').getByTestId('current-plan')).toHaveText('当前套餐')
  })
})
