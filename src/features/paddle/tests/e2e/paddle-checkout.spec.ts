import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { newAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { type SecondServer, startSecondServer } from '../../../../../tests/e2e/second-server'
import { type FakePaddle, signedPaddleDelivery, startFakePaddle } from '../fake-paddle'

// A second server from the same build, set up as a shop selling through Paddle (its API is a fake in this process),
// and Paddle.js played by a small stand-in served at Paddle's CDN address: the page must load it under the
// page's Content-Security-Policy, hand it the transaction, the buyer's language and the way back, and cope with the
// buyer closing the form and with the script not loading at all.
const port = Number(process.env.E2E_PORT ?? 3211) + 19
const origin = `http://localhost:${port}`
const apiKey = 'pdl_sdbx_apikey_e2e'
const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`
const clientToken = 'test_e2eclienttoken'
let server: SecondServer | undefined
let fake: FakePaddle

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  fake = await startFakePaddle({ apiKey })
  server = await startSecondServer({
    port,
    set: {
      PADDLE_API_KEY: apiKey,
      PADDLE_WEBHOOK_SECRET: webhookSecret,
      PADDLE_CLIENT_TOKEN: clientToken,
      PADDLE_ENVIRONMENT: 'sandbox',
      PADDLE_API_URL: fake.url,
    },
    unset: ['STRIPE_SECRET_KEY', 'POLAR_ACCESS_TOKEN', 'LEMONSQUEEZY_API_KEY'],
  })
})

test.afterAll(async () => {
  await server?.stop()
  await fake?.close()
})

/**
 * Paddle.js's part, played in the page: Initialize opens the transaction in the address (`_ptxn`) as an overlay
 * with "Pay" and "Close"; Pay asks the test to complete the payment at the fake Paddle, then goes to the success URL.
 */
const paddleStandIn = `
window.Paddle = {
  Environment: { set(environment) { window.__paddle.environment = environment } },
  Initialize(options) {
    if (window.__paddle.options) throw new Error('Paddle.Initialize() may be called once per page')
    window.__paddle.options = options
    const transactionId = new URLSearchParams(location.search).get('_ptxn')
    if (transactionId) window.Paddle.Checkout.open({ transactionId })
  },
  Checkout: {
    open({ transactionId, settings: given }) {
      window.__paddle.opened.push(transactionId)
      const settings = given ?? window.__paddle.options.checkout.settings
      window.__paddle.lastSettings = settings
      const overlay = document.createElement('div')
      overlay.setAttribute('role', 'dialog')
      overlay.setAttribute('aria-label', 'Paddle checkout ' + settings.locale)
      overlay.style.cssText = 'position:fixed;inset:0;background:#fff;z-index:99'
      const pay = document.createElement('button')
      pay.textContent = 'Pay now'
      pay.onclick = async () => {
        await window.__paddlePaid(transactionId)
        window.__paddle.options.eventCallback({ name: 'checkout.completed' })
        location.assign(settings.successUrl)
      }
      const close = document.createElement('button')
      close.textContent = 'Close'
      close.onclick = () => {
        overlay.remove()
        window.__paddle.options.eventCallback({ name: 'checkout.closed' })
      }
      overlay.append(pay, close)
      document.body.append(overlay)
      window.__paddle.options.eventCallback({ name: 'checkout.loaded' })
    },
  },
}
`

/** Signs up on the Paddle shop and starts a Pro checkout in the given language; lands on the checkout page. */
async function startCheckout(page: Page, lang: 'en' | 'zh') {
  const account = newAccount({ name: 'Petra Paddle' })
  await visit(page, `${origin}/en/sign-up`)
  await page.getByLabel('Name', { exact: true }).fill(account.name)
  await page.getByLabel('Email', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page).toHaveURL(`${origin}/en/console`)
  await visit(page, `${origin}/${lang}/checkout?plan=pro&interval=monthly`)
  await page.getByRole('button', { name: lang === 'zh' ? '前往付款' : 'Continue to payment' }).click()
  await expect(page).toHaveURL(new RegExp(`^${origin}/${lang}/paddle-checkout\\?_ptxn=txn_[a-z0-9]+$`))
  return new URL(page.url()).searchParams.get('_ptxn') ?? ''
}

test('the Paddle checkout page opens Paddle.js on the transaction, reopens it when closed, and lands on the paid order', async ({
  page,
}) => {
  test.slow()
  await page.addInitScript(() => {
    ;(window as unknown as { __paddle: unknown }).__paddle = { opened: [] }
  })
  await page.route('https://cdn.paddle.com/paddle/v2/paddle.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: paddleStandIn }),
  )
  await page.exposeFunction('__paddlePaid', async (transactionId: string) => {
    // The buyer paid in Paddle's form: Paddle completes the transaction and tells the app, as it would.
    const paid = fake.completeCheckout(transactionId)
    for (const event of [
      fake.event('transaction.paid', paid.transaction),
      fake.event('subscription.created', paid.subscription),
      fake.event('transaction.completed', paid.transaction),
    ]) {
      const { body, headers } = signedPaddleDelivery(event, webhookSecret)
      const response = await fetch(`${origin}/api/billing/webhook/paddle`, { method: 'POST', body, headers })
      expect(response.status, event.event_type).toBe(200)
    }
  })

  const transactionId = await startCheckout(page, 'zh')
  await expect(page.getByRole('heading', { name: '结账' })).toBeVisible()
  await expect(page.getByTestId('paddle-checkout-amount')).toHaveText('税前 ¥129')
  // Paddle.js opened the transaction by itself, in Simplified Chinese, in the sandbox, with the way to the order.
  const overlay = page.getByRole('dialog', { name: 'Paddle checkout zh-Hans' })
  await expect(overlay).toBeVisible()
  const paddle = () =>
    page.evaluate(() => {
      const state = (window as unknown as { __paddle: Record<string, unknown> }).__paddle
      const options = state.options as { token: string; checkout: { settings: Record<string, unknown> } }
      return {
        environment: state.environment,
        opened: state.opened,
        token: options.token,
        ...options.checkout.settings,
      }
    })
  expect(await paddle()).toMatchObject({
    environment: 'sandbox',
    opened: [transactionId],
    token: clientToken,
    displayMode: 'overlay',
    locale: 'zh-Hans',
    successUrl: expect.stringMatching(new RegExp(`^${origin}/zh/my-orders\\?order=`)),
  })

  // The buyer closes the form: nothing was charged, and it opens again on request.
  await overlay.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByText('付款表单已关闭，没有扣款。', { exact: false })).toBeVisible()
  await page.getByRole('button', { name: '打开付款表单' }).click()
  await expect(overlay).toBeVisible()
  expect((await paddle()).opened).toEqual([transactionId, transactionId])

  // Away to the pricing and Back again: the same page (Paddle.js initialized once) opens the form anew.
  await overlay.getByRole('button', { name: 'Close' }).click()
  await page.getByRole('link', { name: '返回价格' }).click()
  await expect(page).toHaveURL(new RegExp(`^${origin}/zh/?#pricing$`))
  // The address changes before the pricing has loaded; Back before that would only cancel the navigation.
  await expect(page.getByRole('heading', { name: '简单的价格' })).toBeVisible()
  await page.goBack()
  await expect(overlay).toBeVisible()
  expect((await paddle()).opened).toEqual([transactionId, transactionId, transactionId])

  await overlay.getByRole('button', { name: 'Pay now' }).click()
  await expect(page).toHaveURL(new RegExp(`^${origin}/zh/my-orders\\?order=`))
  await expect(page.getByRole('main')).toContainText('已支付')

  // Back on the checkout page, the paid checkout says so and does not load Paddle.js again.
  await visit(page, `${origin}/zh/paddle-checkout?_ptxn=${transactionId}`)
  await expect(page.getByTestId('paddle-checkout-outcome')).toContainText('此结账已付款。')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // Paddle's emails link a renewal to pay or a card to update to the same page: it opens that transaction.
  await visit(page, `${origin}/en/paddle-checkout?_ptxn=txn_01dunningrenewal`)
  await expect(page.getByRole('heading', { name: 'Payment details' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Paddle checkout en' })).toBeVisible()
  expect(await paddle()).toMatchObject({
    opened: ['txn_01dunningrenewal'],
    successUrl: `${origin}/en/console/organization/billing`,
  })
  // Closed unpaid, it leads back to Billing, not to the pricing.
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('link', { name: 'Back to billing' })).toHaveAttribute(
    'href',
    '/en/console/organization/billing',
  )
})

test.describe('when Paddle.js cannot load', () => {
  test.use({ expectedConsoleErrors: /Failed to load resource|ERR_FAILED|net::/ })

  test('the page says so and tries again on request', async ({ page }) => {
    let blocked = true
    await page.route('https://cdn.paddle.com/paddle/v2/paddle.js', (route) =>
      blocked ? route.abort('blockedbyclient') : route.fulfill({ contentType: 'text/javascript', body: paddleStandIn }),
    )
    await page.addInitScript(() => {
      ;(window as unknown as { __paddle: unknown }).__paddle = { opened: [] }
    })
    await startCheckout(page, 'en')
    await expect(page.getByTestId('paddle-checkout-amount')).toHaveText('$19 before tax')
    await expect(page.getByText('The payment form could not be loaded.', { exact: false })).toBeVisible()
    blocked = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('dialog', { name: 'Paddle checkout en' })).toBeVisible()
  })
})
