// A fake Polar API for tests: a node:http server on 127.0.0.1 that answers the calls PolarPaymentProvider makes
// through the official SDK, in Polar's documented shapes (snake_case JSON, ISO dates, amounts in minor units,
// `{ error, detail }` failures, `{ items, pagination }` lists), and keeps its objects in memory. Tests point the
// provider at it with `apiUrl`, drive it with helpers that stand in for the buyer (completeCheckout) and for Polar's
// own changes (renew, refund, setSubscription), and build the webhook deliveries Polar would send, signed the way
// Polar signs them (Standard Webhooks).
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

type Metadata = Record<string, string | number | boolean>

export interface RecordedPolarRequest {
  method: string
  path: string
  query: URLSearchParams
  body: Record<string, unknown> | null
  authorization: string | null
}

export interface FakePolarProduct {
  id: string
  name: string
  recurring_interval: 'month' | 'year'
  is_recurring: true
  is_archived: boolean
  metadata: Metadata
  prices: Record<string, unknown>[]
  created_at: string
  modified_at: string | null
}

export interface FakePolarCheckout {
  id: string
  status: 'open' | 'expired' | 'confirmed' | 'succeeded' | 'failed'
  url: string
  expires_at: string
  success_url: string
  return_url: string | null
  product_id: string
  products: string[]
  seats: number | null
  currency: string
  locale: string | null
  amount: number
  total_amount: number
  customer_id: string | null
  customer_email: string | null
  external_customer_id: string | null
  subscription_id: string | null
  metadata: Metadata
  created_at: string
  modified_at: string | null
}

export interface FakePolarSubscription {
  id: string
  amount: number
  currency: string
  recurring_interval: 'month' | 'year'
  recurring_interval_count: 1
  status: string
  current_period_start: string
  current_period_end: string
  cancel_at_period_end: boolean
  canceled_at: string | null
  started_at: string
  ends_at: string | null
  ended_at: string | null
  customer_id: string
  product_id: string
  checkout_id: string | null
  seats: number | null
  metadata: Metadata
  customer: { id: string; external_id: string | null; email: string | null }
  product: FakePolarProduct
  created_at: string
  modified_at: string | null
}

export interface FakePolarOrder {
  id: string
  status: 'paid' | 'refunded' | 'partially_refunded' | 'pending'
  paid: boolean
  subtotal_amount: number
  total_amount: number
  refunded_amount: number
  refunded_tax_amount: number
  currency: string
  billing_reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update'
  customer_id: string
  product_id: string
  subscription_id: string
  checkout_id: string | null
  seats: number | null
  metadata: Metadata
  items: { id: string; label: string; amount: number; start_timestamp: string; end_timestamp: string }[]
  created_at: string
  modified_at: string | null
}

/** A webhook event as Polar sends it: type, timestamp and the object (no id: that is the delivery's webhook-id). */
export interface FakePolarEvent {
  type: string
  timestamp: string
  data: unknown
}

export interface FakePolar {
  url: string
  requests: RecordedPolarRequest[]
  close(): Promise<void>
  /** The buyer pays: the checkout succeeds, with a customer, an active subscription and its first paid order. */
  completeCheckout(checkoutId: string): {
    checkout: FakePolarCheckout
    subscription: FakePolarSubscription
    order: FakePolarOrder
  }
  expireCheckout(checkoutId: string): FakePolarCheckout
  checkout(id: string): FakePolarCheckout | undefined
  subscription(id: string): FakePolarSubscription | undefined
  order(id: string): FakePolarOrder | undefined
  products(): FakePolarProduct[]
  /** Polar renews the subscription: a new period and a paid `subscription_cycle` order. */
  renew(subscriptionId: string): { subscription: FakePolarSubscription; order: FakePolarOrder }
  /** Refunds part of an order (Polar keeps the running total on the order). */
  refund(orderId: string, amount: number): FakePolarOrder
  /** A change made at Polar without Hatch (in the dashboard, or by the customer in the portal). */
  setSubscription(id: string, patch: Partial<FakePolarSubscription>): FakePolarSubscription
  /** Makes charges to this customer fail with Polar's 402, as a declined card does. */
  declineCharges(customerId: string, declined?: boolean): void
  /** The orders of a subscription, oldest first. */
  ordersOf(subscriptionId: string): FakePolarOrder[]
  event(type: string, data: unknown): FakePolarEvent
}

const iso = (date: Date) => date.toISOString()

function addPeriod(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start)
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else end.setUTCMonth(end.getUTCMonth() + 1)
  return end
}

/** The price per seat (or for the product) of a product Hatch made: one fixed or seat-based price. */
function unitPriceOf(product: FakePolarProduct): { amount: number; perSeat: boolean; currency: string } {
  const price = product.prices[0] ?? {}
  const currency = String(price.price_currency ?? 'usd')
  if (price.amount_type === 'seat_based') {
    const tiers = (price.seat_tiers as { tiers: { price_per_seat: number }[] }).tiers
    return { amount: tiers[0]?.price_per_seat ?? 0, perSeat: true, currency }
  }
  return { amount: Number(price.price_amount ?? 0), perSeat: false, currency }
}

export async function startFakePolar(options: { accessToken: string }): Promise<FakePolar> {
  const products = new Map<string, FakePolarProduct>()
  const checkouts = new Map<string, FakePolarCheckout>()
  const subscriptions = new Map<string, FakePolarSubscription>()
  const orders = new Map<string, FakePolarOrder>()
  const customersByExternalId = new Map<string, string>()
  const declined = new Set<string>()
  const requests: RecordedPolarRequest[] = []
  let url = ''

  const newOrder = (
    subscription: FakePolarSubscription,
    reason: FakePolarOrder['billing_reason'],
    amount: number,
    period: { start: Date; end: Date },
  ): FakePolarOrder => {
    const now = new Date()
    const order: FakePolarOrder = {
      id: randomUUID(),
      status: 'paid',
      paid: true,
      subtotal_amount: amount,
      total_amount: amount,
      refunded_amount: 0,
      refunded_tax_amount: 0,
      currency: subscription.currency,
      billing_reason: reason,
      customer_id: subscription.customer_id,
      product_id: subscription.product_id,
      subscription_id: subscription.id,
      checkout_id: reason === 'subscription_create' ? subscription.checkout_id : null,
      seats: subscription.seats,
      // Polar copies the subscription's metadata (the checkout's, at first) onto its orders.
      metadata: { ...subscription.metadata },
      items: [
        {
          id: randomUUID(),
          label: subscription.product.name,
          amount,
          start_timestamp: iso(period.start),
          end_timestamp: iso(period.end),
        },
      ],
      created_at: iso(now),
      modified_at: null,
    }
    orders.set(order.id, order)
    return order
  }

  const createProduct = (body: Record<string, unknown>): FakePolarProduct => {
    const product: FakePolarProduct = {
      id: randomUUID(),
      name: String(body.name),
      recurring_interval: body.recurring_interval === 'year' ? 'year' : 'month',
      is_recurring: true,
      is_archived: false,
      metadata: (body.metadata as Metadata) ?? {},
      prices: ((body.prices as Record<string, unknown>[]) ?? []).map((price) => ({ id: randomUUID(), ...price })),
      created_at: iso(new Date()),
      modified_at: null,
    }
    products.set(product.id, product)
    return product
  }

  const createCheckout = (body: Record<string, unknown>): FakePolarCheckout | { status: number; error: object } => {
    const productId = (body.products as string[] | undefined)?.[0] ?? ''
    const product = products.get(productId)
    if (!product) return { status: 422, error: { error: 'RequestValidationError', detail: 'No such product' } }
    const price = unitPriceOf(product)
    const seats = price.perSeat ? Number(body.seats ?? 1) : null
    const amount = price.amount * (seats ?? 1)
    const now = new Date()
    const id = randomUUID()
    const checkout: FakePolarCheckout = {
      id,
      status: 'open',
      url: `${url}/checkout/${id}`,
      expires_at: iso(new Date(now.getTime() + 60 * 60 * 1000)),
      success_url: String(body.success_url ?? ''),
      return_url: (body.return_url as string | undefined) ?? null,
      product_id: productId,
      products: [productId],
      seats,
      currency: String(body.currency ?? price.currency),
      locale: (body.locale as string | undefined) ?? null,
      amount,
      total_amount: amount,
      customer_id: null,
      customer_email: (body.customer_email as string | undefined) ?? null,
      external_customer_id: (body.external_customer_id as string | undefined) ?? null,
      subscription_id: null,
      metadata: (body.metadata as Metadata) ?? {},
      created_at: iso(now),
      modified_at: null,
    }
    checkouts.set(id, checkout)
    return checkout
  }

  const updateSubscription = (
    subscription: FakePolarSubscription,
    body: Record<string, unknown>,
  ): FakePolarSubscription | { status: number; error: object } => {
    if ('cancel_at_period_end' in body) {
      subscription.cancel_at_period_end = Boolean(body.cancel_at_period_end)
      subscription.canceled_at = subscription.cancel_at_period_end ? iso(new Date()) : null
      subscription.ends_at = subscription.cancel_at_period_end ? subscription.current_period_end : null
      subscription.modified_at = iso(new Date())
      return subscription
    }
    const product = body.product_id ? products.get(String(body.product_id)) : subscription.product
    if (!product) return { status: 422, error: { error: 'RequestValidationError', detail: 'No such product' } }
    const price = unitPriceOf(product)
    const seats = price.perSeat ? Number(body.seats ?? subscription.seats ?? 1) : null
    const amount = price.amount * (seats ?? 1)
    const now = new Date()
    const start = new Date(subscription.current_period_start)
    const end = new Date(subscription.current_period_end)
    const newPeriod = product.recurring_interval !== subscription.recurring_interval
    const unused = Math.min(
      1,
      Math.max(0, end.getTime() - now.getTime()) / Math.max(1, end.getTime() - start.getTime()),
    )
    // Polar's `invoice` proration: the unused time credited, the new price charged for it (or for a new period).
    const due = Math.max(
      0,
      (newPeriod ? amount : Math.round(amount * unused)) - Math.round(subscription.amount * unused),
    )
    if (body.proration_behavior === 'invoice' && due > 0 && declined.has(subscription.customer_id)) {
      return { status: 402, error: { error: 'PaymentFailed', detail: 'Your card was declined.' } }
    }
    subscription.product = product
    subscription.product_id = product.id
    subscription.recurring_interval = product.recurring_interval
    subscription.seats = seats
    subscription.amount = amount
    if (body.metadata) subscription.metadata = { ...subscription.metadata, ...(body.metadata as Metadata) }
    if (newPeriod) {
      subscription.current_period_start = iso(now)
      subscription.current_period_end = iso(addPeriod(now, product.recurring_interval))
    }
    subscription.modified_at = iso(now)
    if (body.proration_behavior === 'invoice' && due > 0) {
      newOrder(subscription, 'subscription_update', due, {
        start: now,
        end: new Date(subscription.current_period_end),
      })
    }
    return subscription
  }

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }
  const notFound = (response: ServerResponse) => send(response, 404, { error: 'ResourceNotFound', detail: 'Not found' })
  const list = <T>(items: T[]) => ({ items, pagination: { total_count: items.length, max_page: 1 } })

  const route = (request: RecordedPolarRequest, response: ServerResponse) => {
    const { method, path, query } = request
    const body = request.body ?? {}
    if (request.authorization !== `Bearer ${options.accessToken}`) {
      return send(response, 401, { error: 'Unauthorized', detail: 'Invalid access token' })
    }
    if (method === 'GET' && path === '/v1/products/') {
      const wanted = [...query.entries()].filter(([key]) => key.startsWith('metadata['))
      const matching = [...products.values()].filter(
        (product) =>
          !product.is_archived &&
          wanted.every(([key, value]) => String(product.metadata[key.slice(9, -1)] ?? '') === value),
      )
      return send(response, 200, list(matching.slice(0, Number(query.get('limit') ?? 10))))
    }
    if (method === 'POST' && path === '/v1/products/') return send(response, 201, createProduct(body))
    if (method === 'POST' && path === '/v1/checkouts/') {
      const created = createCheckout(body)
      return 'error' in created ? send(response, created.status, created.error) : send(response, 201, created)
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path)
    if (subscriptionPath) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionPath[1] ?? ''))
      if (!subscription) return notFound(response)
      if (method === 'GET') return send(response, 200, subscription)
      if (method === 'PATCH') {
        const updated = updateSubscription(subscription, body)
        return 'error' in updated ? send(response, updated.status, updated.error) : send(response, 200, updated)
      }
    }
    // Polar's receipt is a presigned link to a PDF that soon expires; this one names the order it is for.
    const receiptPath = /^\/v1\/orders\/([^/]+)\/receipt$/.exec(path)
    if (receiptPath && method === 'GET') {
      const orderId = decodeURIComponent(receiptPath[1] ?? '')
      return orders.has(orderId)
        ? send(response, 200, { url: `${url}/receipts/${orderId}.pdf?expires=3600` })
        : notFound(response)
    }
    const orderPath = /^\/v1\/orders\/([^/]+)$/.exec(path)
    if (orderPath && method === 'GET') {
      const order = orders.get(decodeURIComponent(orderPath[1] ?? ''))
      return order ? send(response, 200, order) : notFound(response)
    }
    if (method === 'POST' && path === '/v1/customer-sessions/') {
      const customerId = String(body.customer_id ?? '')
      if (![...subscriptions.values()].some((subscription) => subscription.customer_id === customerId)) {
        return notFound(response)
      }
      const token = randomUUID()
      return send(response, 201, {
        id: randomUUID(),
        token,
        expires_at: iso(new Date(Date.now() + 60 * 60 * 1000)),
        return_url: body.return_url ?? null,
        customer_portal_url: `${url}/portal?customer_session_token=${token}`,
        customer_id: customerId,
        created_at: iso(new Date()),
        modified_at: null,
      })
    }
    return send(response, 404, { error: 'NotFound', detail: `No route ${method} ${path}` })
  }

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const address = new URL(incoming.url ?? '/', 'http://fake-polar')
      const text = Buffer.concat(chunks).toString('utf8')
      const recorded: RecordedPolarRequest = {
        method: incoming.method ?? 'GET',
        path: address.pathname,
        query: address.searchParams,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
        authorization: incoming.headers.authorization ?? null,
      }
      requests.push(recorded)
      route(recorded, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const required = <T>(map: Map<string, T>, id: string, what: string): T => {
    const found = map.get(id)
    if (!found) throw new Error(`The fake Polar has no ${what} ${id}`)
    return found
  }

  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    completeCheckout(checkoutId) {
      const checkout = required(checkouts, checkoutId, 'checkout')
      const product = required(products, checkout.product_id, 'product')
      const externalId = checkout.external_customer_id
      const customerId = (externalId && customersByExternalId.get(externalId)) || randomUUID()
      if (externalId) customersByExternalId.set(externalId, customerId)
      const start = new Date()
      const end = addPeriod(start, product.recurring_interval)
      const subscription: FakePolarSubscription = {
        id: randomUUID(),
        amount: checkout.amount,
        currency: checkout.currency,
        recurring_interval: product.recurring_interval,
        recurring_interval_count: 1,
        status: 'active',
        current_period_start: iso(start),
        current_period_end: iso(end),
        cancel_at_period_end: false,
        canceled_at: null,
        started_at: iso(start),
        ends_at: null,
        ended_at: null,
        customer_id: customerId,
        product_id: product.id,
        checkout_id: checkout.id,
        seats: checkout.seats,
        metadata: { ...checkout.metadata },
        customer: { id: customerId, external_id: externalId, email: checkout.customer_email },
        product,
        created_at: iso(start),
        modified_at: null,
      }
      subscriptions.set(subscription.id, subscription)
      Object.assign(checkout, {
        status: 'succeeded',
        customer_id: customerId,
        subscription_id: subscription.id,
        modified_at: iso(start),
      })
      const order = newOrder(subscription, 'subscription_create', checkout.amount, { start, end })
      return { checkout: structuredClone(checkout), subscription: structuredClone(subscription), order }
    },
    expireCheckout(checkoutId) {
      const checkout = required(checkouts, checkoutId, 'checkout')
      checkout.status = 'expired'
      return structuredClone(checkout)
    },
    checkout: (id) => checkouts.get(id),
    subscription: (id) => subscriptions.get(id),
    order: (id) => orders.get(id),
    products: () => [...products.values()],
    renew(subscriptionId) {
      const subscription = required(subscriptions, subscriptionId, 'subscription')
      const start = new Date(subscription.current_period_end)
      const end = addPeriod(start, subscription.recurring_interval)
      subscription.current_period_start = iso(start)
      subscription.current_period_end = iso(end)
      const order = newOrder(subscription, 'subscription_cycle', subscription.amount, { start, end })
      return { subscription: structuredClone(subscription), order }
    },
    refund(orderId, amount) {
      const order = required(orders, orderId, 'order')
      order.refunded_amount = Math.min(order.total_amount, order.refunded_amount + amount)
      order.status = order.refunded_amount >= order.total_amount ? 'refunded' : 'partially_refunded'
      order.modified_at = iso(new Date())
      return structuredClone(order)
    },
    setSubscription(id, patch) {
      const subscription = required(subscriptions, id, 'subscription')
      Object.assign(subscription, patch, { modified_at: iso(new Date()) })
      return structuredClone(subscription)
    },
    declineCharges(customerId, isDeclined = true) {
      if (isDeclined) declined.add(customerId)
      else declined.delete(customerId)
    },
    ordersOf: (subscriptionId) => [...orders.values()].filter((order) => order.subscription_id === subscriptionId),
    event: (type, data) => ({ type, timestamp: iso(new Date()), data: structuredClone(data) }),
  }
}

/**
 * A delivery as Polar sends it: the event's JSON, signed per Standard Webhooks. Endpoints made since September 2026
 * sign with the secret's base64 key (`standard`); older ones with the secret's UTF-8 bytes (`legacy`).
 */
export function signedPolarDelivery(
  event: FakePolarEvent,
  secret: string,
  options: { webhookId?: string; timestamp?: Date; scheme?: 'standard' | 'legacy' } = {},
): { body: string; headers: Headers; webhookId: string } {
  const body = JSON.stringify(event)
  const webhookId = options.webhookId ?? randomUUID()
  const timestamp = options.timestamp ?? new Date()
  const key = options.scheme === 'legacy' ? Buffer.from(secret, 'utf8').toString('base64') : secret
  const signature = new Webhook(key).sign(webhookId, timestamp, body)
  return {
    body,
    webhookId,
    headers: new Headers({
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    }),
  }
}
