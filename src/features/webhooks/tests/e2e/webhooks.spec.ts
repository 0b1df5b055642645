import { newAccount, signUpNewAccount } from '../../../../../tests/e2e/accounts'
import { expect, test, visit } from '../../../../../tests/e2e/fixtures'
import { waitForEmail } from '../../../../../tests/e2e/mailbox'
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver'

test.describe('outgoing webhooks', () => {
  let receiver: WebhookReceiver
  test.beforeEach(async () => {
    receiver = await startWebhookReceiver()
  })
  test.afterEach(async () => {
    await receiver.close()
  })

  test('an owner adds an endpoint, keeps its secret, sees a signed delivery in the log and sends it again', async ({
    page,
    context,
    browser,
  }) => {
    test.slow() // two accounts, the dialog, an invitation answered, a delivery through the job queue, the log
    await signUpNewAccount(page)
    await visit(page, '/en/console/organization/webhooks')
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible()

    // The form says what is missing, in place.
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByTestId('error-url')).toHaveText('Required')
    await expect(dialog.getByTestId('error-events')).toHaveText('Choose at least one event')
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/hooks')
    await expect(dialog.getByTestId('error-url')).toHaveText(
      'Enter an http:// or https:// URL without a user name or password',
    )

    await dialog.getByLabel('Endpoint URL').fill(receiver.url)
    await dialog.getByLabel('Description').fill('Directory sync')
    await dialog.getByRole('checkbox', { name: /A member joined/ }).check()
    await dialog.getByRole('button', { name: 'Save' }).click()

    // The secret is shown once, and copies.
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' })
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? ''
    expect(secret).toMatch(/^whsec_/)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await secretDialog.getByRole('button', { name: 'Copy' }).click()
    await expect(page.getByText('Secret copied')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    await secretDialog.getByRole('button', { name: 'I have copied it' }).click()
    receiver.trust(secret)

    const endpoint = page.getByTestId('webhook-endpoint')
    await expect(endpoint).toContainText(receiver.url)
    await expect(endpoint).toContainText('Directory sync')
    await expect(endpoint).toContainText('member.added')
    await expect(endpoint).toContainText('On')
    await expect(page.getByText(secret)).toHaveCount(0)

    // Someone, in their own browser, joins by invitation: the receiver gets it once, signed.
    const origin = new URL(page.url()).origin
    const joinerContext = await browser.newContext()
    const joinerPage = await joinerContext.newPage()
    const joiner = await signUpNewAccount(joinerPage, newAccount({ name: 'Jo Joiner' }))
    const invited = await page.request.post('/api/auth/organization/invite-member', {
      headers: { origin },
      data: { email: joiner.email, role: 'member' },
    })
    expect(invited.status(), await invited.text()).toBe(200)
    // Only the address's owner may answer an invitation: Jo confirms hers first.
    const sent = await joinerPage.request.post('/api/auth/send-verification-email', {
      headers: { origin },
      data: { email: joiner.email, callbackURL: '/en/console' },
    })
    expect(sent.status(), await sent.text()).toBe(200)
    const confirmation = await waitForEmail(joiner.email, { subject: /Confirm your email/ })
    const confirmLink = confirmation.links.find((url) => url.includes('verify-email'))
    expect(confirmLink, 'the confirmation email has its link').toBeTruthy()
    await joinerPage.goto(confirmLink ?? '')
    const accepted = await joinerPage.request.post('/api/auth/organization/accept-invitation', {
      headers: { origin },
      data: { invitationId: ((await invited.json()) as { id: string }).id },
    })
    expect(accepted.status(), await accepted.text()).toBe(200)
    await joinerContext.close()
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1)
    expect(receiver.received[0]).toMatchObject({
      type: 'member.added',
      verified: true,
      data: { email: joiner.email, role: 'member' },
    })

    // The delivery log shows it, with the attempt and the payload; "send again" delivers the same message.
    await endpoint.getByRole('link', { name: 'Deliveries' }).click()
    await expect(page).toHaveURL(/\/en\/console\/organization\/webhooks\?endpoint=we_/)
    await expect(page.getByTestId('delivery-log-endpoint')).toHaveText(receiver.url)
    const delivery = page.getByTestId('webhook-delivery')
    await expect(delivery).toHaveCount(1)
    await expect(delivery).toContainText('member.added')
    await expect(delivery).toContainText('Delivered')
    await delivery.locator('summary').first().click()
    await expect(delivery).toContainText('HTTP 204')
    await expect(delivery).toContainText(joiner.email)
    await delivery.getByRole('button', { name: 'Send again' }).click()
    await expect(page.getByText('Delivered', { exact: true }).last()).toBeVisible()
    await expect.poll(() => receiver.received.length).toBe(2)
    expect(receiver.received[1]?.id).toBe(receiver.received[0]?.id)
    await expect(delivery).toContainText('2 attempts')

    // Switched off from the list, it says so.
    await page.getByRole('link', { name: 'All endpoints' }).click()
    await page.getByRole('button', { name: `Actions for ${receiver.url}` }).click()
    await page.getByRole('menuitem', { name: 'Switch off' }).click()
    await expect(page.getByText('Endpoint switched off')).toBeVisible()
    await expect(page.getByTestId('webhook-endpoint')).toContainText('Switched off')
  })

  test('an owner sends a signed test event from the endpoint’s menu, named for its URL, in English and Chinese', async ({
    page,
  }) => {
    test.slow() // sign-up, two test events through the job queue, the log
    await signUpNewAccount(page)
    await visit(page, '/en/console/organization/webhooks')
    const created = await page.evaluate(
      (url) =>
        fetch('/api/trpc/webhooks.create', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ json: { url, events: ['member.added'], locale: 'en' } }),
        }).then((response) => response.json() as Promise<{ result: { data: { json: { secret: string } } } }>),
      receiver.url,
    )
    receiver.trust(created.result.data.json.secret)
    await visit(page, '/en/console/organization/webhooks')

    await page.getByRole('button', { name: `Actions for ${receiver.url}` }).click()
    await page.getByRole('menuitem', { name: 'Send test event' }).click()
    await expect(page.getByText('Test event queued: it shows in the delivery log once sent')).toBeVisible()
    await expect.poll(() => receiver.ofType('webhook.test').length, { timeout: 20_000 }).toBe(1)
    expect(receiver.ofType('webhook.test')[0]).toMatchObject({ verified: true })

    // It is logged like any delivery, with the exact request (signature, never the secret) and the answer.
    await page.getByTestId('webhook-endpoint').getByRole('link', { name: 'Deliveries' }).click()
    const delivery = page.getByTestId('webhook-delivery')
    await expect(delivery).toContainText('webhook.test')
    await expect(delivery).toContainText('Delivered')
    await delivery.locator('summary').first().click()
    await delivery.getByText('Request', { exact: true }).click()
    const request = delivery.getByTestId('attempt-request')
    await expect(request).toContainText(`POST ${receiver.url}`)
    await expect(request).toContainText(`webhook-id: ${receiver.ofType('webhook.test')[0]?.id}`)
    await expect(request).toContainText(/webhook-timestamp: \d+/)
    await expect(request).toContainText(/webhook-signature: v1,/)
    await expect(request).toContainText('"type":"webhook.test"')
    await delivery.getByText('Response', { exact: true }).click()
    await expect(delivery.getByTestId('attempt-response')).toContainText('HTTP 204')
    await expect(page.getByText(created.result.data.json.secret.slice(6))).toHaveCount(0)

    // In Chinese, against a receiver that fails: the log says when the next attempt is due.
    receiver.failWith(503)
    await visit(page, '/zh/console/organization/webhooks')
    await page.getByRole('button', { name: `${receiver.url} 的操作` }).click()
    await page.getByRole('menuitem', { name: '发送测试事件' }).click()
    await expect(page.getByText('测试事件已排队：发送后会出现在投递记录中')).toBeVisible()
    await expect.poll(() => receiver.ofType('webhook.test').length, { timeout: 20_000 }).toBe(2)
    expect(receiver.ofType('webhook.test')[1]).toMatchObject({ verified: true })
    await page.getByTestId('webhook-endpoint').getByRole('link', { name: '投递记录' }).click()
    const waiting = page.getByTestId('webhook-delivery').first()
    await expect(async () => {
      await page.reload()
      await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
      await waiting.locator('summary').first().click()
      await expect(waiting.getByTestId('next-attempt')).toContainText('下次尝试', { timeout: 1000 })
      await expect(waiting.getByText('响应', { exact: true })).toBeVisible({ timeout: 1000 })
    }).toPass({ timeout: 20_000 })
    await waiting.getByText('请求', { exact: true }).click()
    await waiting.getByText('响应', { exact: true }).click()
    await expect(waiting.getByTestId('attempt-response')).toContainText('HTTP 503')
    await expect(waiting.getByTestId('attempt-response')).toContainText('Receiver down for maintenance')
  })
})
