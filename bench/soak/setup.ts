// Before the load: the installation's first account (it becomes the app admin), then ten organizations on Pro (the
// Free plan holds 50 books), each with an owner's session and an API key for MCP, made as people make them.
import type { Acknowledged } from './acknowledged.ts'
import { sessionCookieOf, soakPassword, trpcBody, trpcData } from './wire.ts'

export interface SoakOrganization {
  index: number
  ownerEmail: string
  /** The owner's session cookie; the organization is the session's active one (the personal workspace). */
  cookie: string
  apiKey: string
}

async function post(origin: string, pathname: string, body: string, cookie?: string): Promise<Response> {
  return fetch(new URL(pathname, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    body,
    signal: AbortSignal.timeout(60_000),
  })
}

async function expectOk(response: Response, what: string): Promise<string> {
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 500)}`)
  return text
}

export async function signUp(origin: string, email: string, acknowledged: Acknowledged): Promise<string> {
  const response = await post(
    origin,
    '/api/auth/sign-up/email',
    JSON.stringify({ name: 'Soak', email, password: soakPassword }),
  )
  await expectOk(response, `signing up ${email}`)
  acknowledged.accounts.add(email)
  return sessionCookieOf(response.headers.getSetCookie())
}

/** Pro through the local provider's checkout, paid, as a person would; the order counts in the ledger check. */
export async function buyPro(origin: string, cookie: string, acknowledged: Acknowledged): Promise<void> {
  const started = trpcData<{ orderId: string; url: string }>(
    await expectOk(
      await post(
        origin,
        '/api/trpc/billing.startCheckout',
        trpcBody({ planId: 'pro', interval: 'monthly', currency: 'USD', locale: 'en' }),
        cookie,
      ),
      'billing.startCheckout',
    ),
  )
  if (!started) throw new Error('billing.startCheckout answered no order')
  acknowledged.checkoutsStarted.add(started.orderId)
  const checkoutId = started.url.slice(started.url.lastIndexOf('/') + 1)
  if (!checkoutId.startsWith('lcs_')) throw new Error(`Checkout went to ${started.url}, not the local provider`)
  await expectOk(
    await post(origin, '/api/trpc/billing.local.settle', trpcBody({ id: checkoutId, outcome: 'pay' }), cookie),
    'billing.local.settle',
  )
  acknowledged.ordersPaid.add(started.orderId)
}

export async function prepareOrganizations(
  origin: string,
  runTag: string,
  count: number,
  acknowledged: Acknowledged,
): Promise<SoakOrganization[]> {
  await signUp(origin, `soak-${runTag}-admin@example.com`, acknowledged)
  const organizations: SoakOrganization[] = []
  for (let index = 0; index < count; index++) {
    const ownerEmail = `soak-${runTag}-owner-${index}@example.com`
    const cookie = await signUp(origin, ownerEmail, acknowledged)
    await buyPro(origin, cookie, acknowledged)
    const key = JSON.parse(
      await expectOk(
        await post(origin, '/api/auth/api-key/create', JSON.stringify({ name: `Soak agent ${index}` }), cookie),
        'creating an API key',
      ),
    ) as { key: string }
    organizations.push({ index, ownerEmail, cookie, apiKey: key.key })
  }
  return organizations
}
