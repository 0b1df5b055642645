// A fake Lemon Squeezy API for tests: a node:http server on 127.0.0.1 that answers the calls
// LemonSqueezyPaymentProvider makes through the official SDK, in Lemon Squeezy's JSON:API shapes
// (`{ data: { type, id, attributes } }`, `{ errors: [...] }`, string ids, amounts in minor units), and keeps its objects
// in memory. The SDK always calls https://api.lemonsqueezy.com, so `routeSdkCallsTo` sends those calls here. Helpers
// stand in for the buyer (completeCheckout) and for Lemon Squeezy's own changes (renew, refund, setSubscription), and
// build the webhook deliveries it would send, signed as it signs them (X-Signature: HMAC-SHA256 of the body, hex).
import { createHmac, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

type Attributes = Record<string, unknown>

export interface FakeResource<T extends Attributes = Attributes> {
  type: string
  id: string
  attributes: T
}

export interface RecordedLemonRequest {
  method: string
  path: string
  body: { data?: { type?: string; id?: string; attributes?: Attributes; relationships?: Attributes } } | null
  authorization: string | null
}

export interface FakeLemonSubscription extends Attributes {
  store_id: number
  customer_id: number
  order_id: number
  variant_id: number
  status: string
  cancelled: boolean
  renews_at: string
  ends_at: string | null
  created_at: string
  updated_at: string
  first_subscription_item: { id: number; subscription_id: number; quantity: number }
  /** Not part of Lemon Squeezy's object: the price per unit the fake bills (the checkout's custom price). */
  unit_price: number
}

export interface FakeLemonSqueezy {
  url: string
  requests: RecordedLemonRequest[]
  close(): Promise<void>
  /** The buyer pays: an order, a subscription and its first (initial) invoice, paid. */
  completeCheckout(checkoutId: string): {
    order: FakeResource
    subscription: FakeResource<FakeLemonSubscription>
    invoice: FakeResource
  }
  checkout(id: string): FakeResource | undefined
  subscription(id: string): FakeResource<FakeLemonSubscription> | undefined
  /** A new period, billed by a paid `renewal` invoice. */
  renew(subscriptionId: string): FakeResource
  /** Refunds part of an invoice (Lemon Squeezy keeps the running total). */
  refund(invoiceId: string, amount: number): FakeResource
  setSubscription(id: string, patch: Partial<FakeLemonSubscription>): FakeResource<FakeLemonSubscription>
  invoicesOf(subscriptionId: string): FakeResource[]
  /** A webhook event as Lemon Squeezy sends it, with the checkout's custom data in `meta`. */
  event(eventName: string, resource: FakeResource, customData?: Record<string, string>): unknown
}

const iso = (date: Date) => date.toISOString()
let nextId = 1000
const newId = () => nextId++

function addPeriod(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start)
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else end.setUTCMonth(end.getUTCMonth() + 1)
  return end
}

/**
 * Starts the fake. `variants` says each variant's period and its own price (what the store's dashboard shows, and what
 * a plan change to it bills); `currency` is the store's.
 */
export async function startFakeLemonSqueezy(options: {
  apiKey: string
  storeId: string
  currency: string
  variants: Record<string, { interval: 'month' | 'year'; price: number }>
}): Promise<FakeLemonSqueezy> {
  const checkouts = new Map<string, FakeResource>()
  const subscriptions = new Map<string, FakeResource<FakeLemonSubscription>>()
  const invoices = new Map<string, FakeResource>()
  const requests: RecordedLemonRequest[] = []
  const customerByEmail = new Map<string, number>()
  let url = ''

  const newInvoice = (
    subscription: FakeResource<FakeLemonSubscription>,
    reason: 'initial' | 'renewal' | 'updated',
    total: number,
  ): FakeResource => {
    const id = String(newId())
    const invoice: FakeResource = {
      type: 'subscription-invoices',
      id,
      attributes: {
        store_id: Number(options.storeId),
        subscription_id: Number(subscription.id),
        customer_id: subscription.attributes.customer_id,
        billing_reason: reason,
        status: 'paid',
        refunded: false,
        refunded_amount: 0,
        subtotal: total,
        tax: 0,
        total,
        currency: options.currency,
        urls: { invoice_url: `${url}/invoices/${id}` },
        created_at: iso(new Date()),
        updated_at: iso(new Date()),
      },
    }
    invoices.set(id, invoice)
    return invoice
  }

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/vnd.api+json' })
    response.end(JSON.stringify(body))
  }
  const notFound = (response: ServerResponse) =>
    send(response, 404, { errors: [{ status: '404', title: 'Not Found', detail: 'Not found' }] })

  const createCheckout = (body: RecordedLemonRequest['body']): FakeResource | undefined => {
    const variantId = String(
      body?.data?.relationships?.variant ? (body.data.relationships.variant as { data: { id: string } }).data.id : '',
    )
    if (!options.variants[variantId]) return undefined
    const attributes = body?.data?.attributes ?? {}
    const id = randomUUID()
    const checkout: FakeResource = {
      type: 'checkouts',
      id,
      attributes: {
        store_id: Number(options.storeId),
        variant_id: Number(variantId),
        custom_price: attributes.custom_price ?? null,
        checkout_data: attributes.checkout_data ?? {},
        product_options: attributes.product_options ?? {},
        expires_at: attributes.expires_at ?? null,
        url: `${url}/checkout/custom/${id}?signature=fake`,
        created_at: iso(new Date()),
        updated_at: iso(new Date()),
      },
    }
    checkouts.set(id, checkout)
    return checkout
  }

  const changeSubscription = (subscription: FakeResource<FakeLemonSubscription>, attributes: Attributes) => {
    const s = subscription.attributes
    if ('cancelled' in attributes) {
      s.cancelled = Boolean(attributes.cancelled)
      s.status = s.cancelled ? 'cancelled' : 'active'
      s.ends_at = s.cancelled ? s.renews_at : null
    }
    if (attributes.variant_id !== undefined) {
      const variant = options.variants[String(attributes.variant_id)]
      if (!variant) return false
      const oldTotal = s.unit_price * s.first_subscription_item.quantity
      const current = options.variants[String(s.variant_id)]
      s.variant_id = Number(attributes.variant_id)
      // The new variant's own price applies from now on (a checkout's custom price belonged to the old variant).
      s.unit_price = variant.price
      const now = new Date()
      if (current?.interval !== variant.interval) s.renews_at = iso(addPeriod(now, variant.interval))
      if (attributes.invoice_immediately) {
        const due = prorated(s, oldTotal, s.unit_price * s.first_subscription_item.quantity, now)
        if (due > 0) newInvoice(subscription, 'updated', due)
      }
    }
    s.updated_at = iso(new Date())
    return true
  }

  /** Lemon Squeezy's proration, to the second here: the new price for the time left, less the old one's. */
  const prorated = (s: FakeLemonSubscription, oldTotal: number, newTotal: number, now: Date) => {
    const end = new Date(s.renews_at).getTime()
    const interval = options.variants[String(s.variant_id)]?.interval ?? 'month'
    // The current period began one interval before it renews.
    const start = new Date(end)
    if (interval === 'year') start.setUTCFullYear(start.getUTCFullYear() - 1)
    else start.setUTCMonth(start.getUTCMonth() - 1)
    const length = end - start.getTime()
    const unused = Math.min(1, Math.max(0, end - now.getTime()) / Math.max(1, length))
    return Math.max(0, Math.round(newTotal * unused) - Math.round(oldTotal * unused))
  }

  const route = (request: RecordedLemonRequest, response: ServerResponse) => {
    const { method, path, body } = request
    if (request.authorization !== `Bearer ${options.apiKey}`) {
      return send(response, 401, { errors: [{ status: '401', title: 'Unauthorized', detail: 'Invalid API key' }] })
    }
    if (method === 'POST' && path === '/v1/checkouts') {
      const checkout = createCheckout(body)
      if (!checkout)
        return send(response, 422, {
          errors: [{ status: '422', title: 'Unprocessable Entity', detail: 'No such variant' }],
        })
      return send(response, 201, { data: checkout })
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (subscriptionPath) {
      const subscription = subscriptions.get(subscriptionPath[1] ?? '')
      if (!subscription) return notFound(response)
      if (method === 'GET') return send(response, 200, { data: subscriptionResource(subscription) })
      if (method === 'PATCH') {
        if (!changeSubscription(subscription, body?.data?.attributes ?? {})) return notFound(response)
        return send(response, 200, { data: subscriptionResource(subscription) })
      }
    }
    const itemPath = /^\/v1\/subscription-items\/([^/]+)$/.exec(path)
    if (itemPath && method === 'PATCH') {
      const subscription = [...subscriptions.values()].find(
        (candidate) => String(candidate.attributes.first_subscription_item.id) === itemPath[1],
      )
      if (!subscription) return notFound(response)
      const s = subscription.attributes
      const attributes = body?.data?.attributes ?? {}
      const quantity = Number(attributes.quantity)
      const oldTotal = s.unit_price * s.first_subscription_item.quantity
      s.first_subscription_item.quantity = quantity
      if (attributes.invoice_immediately) {
        const due = prorated(s, oldTotal, s.unit_price * quantity, new Date())
        if (due > 0) newInvoice(subscription, 'updated', due)
      }
      s.updated_at = iso(new Date())
      return send(response, 200, { data: { type: 'subscription-items', id: itemPath[1], attributes: { quantity } } })
    }
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path)
    if (customerPath && method === 'GET') {
      const known = [...subscriptions.values()].some((s) => String(s.attributes.customer_id) === customerPath[1])
      if (!known) return notFound(response)
      return send(response, 200, {
        data: {
          type: 'customers',
          id: customerPath[1],
          attributes: { urls: { customer_portal: `${url}/billing?expires=1&signature=fake-${customerPath[1]}` } },
        },
      })
    }
    return notFound(response)
  }

  /** The subscription as the API shows it (without the fake's own bookkeeping). */
  const subscriptionResource = (subscription: FakeResource<FakeLemonSubscription>) => {
    const { unit_price: _price, ...attributes } = subscription.attributes
    return { type: 'subscriptions', id: subscription.id, attributes }
  }

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const recorded: RecordedLemonRequest = {
        method: incoming.method ?? 'GET',
        path: new URL(incoming.url ?? '/', 'http://fake').pathname,
        body: text ? JSON.parse(text) : null,
        authorization: incoming.headers.authorization ?? null,
      }
      requests.push(recorded)
      route(recorded, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    completeCheckout(checkoutId) {
      const checkout = checkouts.get(checkoutId)
      if (!checkout) throw new Error(`The fake has no checkout ${checkoutId}`)
      const a = checkout.attributes
      const data = a.checkout_data as { email?: string; variant_quantities?: { quantity: number }[] }
      const variant = options.variants[String(a.variant_id)]
      if (!variant) throw new Error(`Unknown variant ${a.variant_id}`)
      const quantity = data.variant_quantities?.[0]?.quantity ?? 1
      const unitPrice = Number(a.custom_price ?? variant.price)
      const email = data.email ?? 'buyer@example.com'
      const customerId = customerByEmail.get(email) ?? newId()
      customerByEmail.set(email, customerId)
      const now = new Date()
      const order: FakeResource = {
        type: 'orders',
        id: String(newId()),
        attributes: {
          store_id: Number(options.storeId),
          customer_id: customerId,
          status: 'paid',
          currency: options.currency,
          total: unitPrice * quantity,
          refunded: false,
          refunded_amount: 0,
          first_order_item: { variant_id: a.variant_id, quantity },
          created_at: iso(now),
          updated_at: iso(now),
        },
      }
      const subscriptionId = String(newId())
      const subscription: FakeResource<FakeLemonSubscription> = {
        type: 'subscriptions',
        id: subscriptionId,
        attributes: {
          store_id: Number(options.storeId),
          customer_id: customerId,
          order_id: Number(order.id),
          variant_id: Number(a.variant_id),
          status: 'active',
          cancelled: false,
          renews_at: iso(addPeriod(now, variant.interval)),
          ends_at: null,
          created_at: iso(now),
          updated_at: iso(now),
          first_subscription_item: { id: newId(), subscription_id: Number(subscriptionId), quantity },
          unit_price: unitPrice,
        },
      }
      subscriptions.set(subscriptionId, subscription)
      const invoice = newInvoice(subscription, 'initial', unitPrice * quantity)
      return {
        order,
        subscription: structuredClone(subscriptionResource(subscription)) as typeof subscription,
        invoice,
      }
    },
    checkout: (id) => checkouts.get(id),
    subscription: (id) => subscriptions.get(id),
    renew(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId)
      if (!subscription) throw new Error(`The fake has no subscription ${subscriptionId}`)
      const s = subscription.attributes
      const interval = options.variants[String(s.variant_id)]?.interval ?? 'month'
      s.renews_at = iso(addPeriod(new Date(s.renews_at), interval))
      return newInvoice(subscription, 'renewal', s.unit_price * s.first_subscription_item.quantity)
    },
    refund(invoiceId, amount) {
      const invoice = invoices.get(invoiceId)
      if (!invoice) throw new Error(`The fake has no invoice ${invoiceId}`)
      const a = invoice.attributes
      a.refunded_amount = Math.min(Number(a.total), Number(a.refunded_amount) + amount)
      a.refunded = a.refunded_amount === a.total
      a.status = a.refunded ? 'refunded' : 'partial_refund'
      a.updated_at = iso(new Date())
      return structuredClone(invoice)
    },
    setSubscription(id, patch) {
      const subscription = subscriptions.get(id)
      if (!subscription) throw new Error(`The fake has no subscription ${id}`)
      Object.assign(subscription.attributes, patch, { updated_at: iso(new Date()) })
      return structuredClone(subscriptionResource(subscription)) as FakeResource<FakeLemonSubscription>
    },
    invoicesOf: (subscriptionId) =>
      [...invoices.values()].filter((invoice) => String(invoice.attributes.subscription_id) === subscriptionId),
    event: (eventName, resource, customData) => ({
      meta: {
        event_name: eventName,
        test_mode: true,
        webhook_id: randomUUID(),
        ...(customData && { custom_data: customData }),
      },
      data: structuredClone(resource),
    }),
  }
}

/** A delivery as Lemon Squeezy sends it: the event's JSON, with its event name and signature in headers. */
export function signedLemonDelivery(event: unknown, secret: string): { body: string; headers: Headers } {
  const body = JSON.stringify(event)
  return {
    body,
    headers: new Headers({
      'content-type': 'application/json',
      'x-event-name': (event as { meta: { event_name: string } }).meta.event_name,
      'x-signature': createHmac('sha256', secret).update(body).digest('hex'),
    }),
  }
}

/** Sends the SDK's calls, which always go to https://api.lemonsqueezy.com, to the fake instead; returns the undo. */
export function routeSdkCallsTo(fakeUrl: string): () => void {
  const realFetch = globalThis.fetch
  globalThis.fetch = (input, init) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    return target.startsWith('https://api.lemonsqueezy.com/')
      ? realFetch(target.replace('https://api.lemonsqueezy.com', fakeUrl), init)
      : realFetch(input, init)
  }
  return () => {
    globalThis.fetch = realFetch
  }
}
