// A fake Stripe API for tests: a node:http server on 127.0.0.1 that answers the calls StripePaymentProvider makes,
// in Stripe's documented shapes (form-encoded requests, JSON objects, `{ error: { type, code, message } }` failures),
// and keeps its objects in memory. Tests point the provider at it with `apiUrl`, drive it with helpers that stand in
// for the buyer (completeCheckout) and for Stripe's own changes (setSubscription), and build the webhook events Stripe
// would send, signed the way Stripe signs them.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

type Metadata = Record<string, string>
type Interval = 'day' | 'week' | 'month' | 'year'

/** One call the fake answered, as it arrived: the form body parsed back into objects and arrays (values are strings). */
export interface RecordedRequest {
  method: string
  path: string
  query: Record<string, unknown>
  body: Record<string, unknown>
  idempotencyKey: string | null
  stripeVersion: string | null
}

export interface FakeProduct {
  id: string
  object: 'product'
  active: boolean
  created: number
  livemode: false
  metadata: Metadata
  name: string
}

export interface FakePrice {
  id: string
  object: 'price'
  active: boolean
  created: number
  currency: string
  livemode: false
  metadata: Metadata
  product: string
  recurring: { interval: Interval; interval_count: number; usage_type: 'licensed' }
  type: 'recurring'
  unit_amount: number
  unit_amount_decimal: string
}

export interface FakeSubscriptionItem {
  id: string
  object: 'subscription_item'
  created: number
  /** On the item since API version 2025-03-31.basil; a test may drop them to play an older subscription. */
  current_period_start?: number
  current_period_end?: number
  metadata: Metadata
  price: FakePrice
  quantity: number
  subscription: string
}

export interface FakeSubscription {
  id: string
  object: 'subscription'
  cancel_at: number | null
  cancel_at_period_end: boolean
  canceled_at: number | null
  created: number
  currency: string
  customer: string
  ended_at: number | null
  items: { object: 'list'; data: FakeSubscriptionItem[]; has_more: false; url: string }
  latest_invoice: string | null
  livemode: false
  metadata: Metadata
  start_date: number
  status: string
  /** Where older API versions kept the period (see FakeSubscriptionItem). */
  current_period_start?: number
  current_period_end?: number
}

export interface FakeCheckoutSession {
  id: string
  object: 'checkout.session'
  amount_total: number
  cancel_url: string | null
  client_reference_id: string | null
  created: number
  currency: string
  customer: string | null
  customer_email: string | null
  expires_at: number
  livemode: false
  locale: string | null
  metadata: Metadata
  mode: 'subscription'
  payment_method_types: string[]
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  status: 'open' | 'complete' | 'expired'
  subscription: string | null
  success_url: string | null
  url: string | null
}

export interface FakeInvoiceLine {
  id: string
  object: 'line_item'
  amount: number
  currency: string
  description: string
  metadata: Metadata
  period: { start: number; end: number }
  quantity: number
}

/** An invoice in the current shape (`parent`, `payments`) or the pre-2025-03-31 one (top-level `subscription`…). */
export interface FakeInvoice {
  id: string
  object: 'invoice'
  amount_due: number
  amount_paid: number
  amount_remaining: number
  billing_reason: string
  created: number
  currency: string
  customer: string
  hosted_invoice_url: string
  lines: { object: 'list'; data: FakeInvoiceLine[]; has_more: false; url: string }
  livemode: false
  status: 'paid' | 'open'
  parent?: {
    type: 'subscription_details'
    quote_details: null
    subscription_details: { metadata: Metadata; subscription: string }
  }
  payments?: {
    object: 'list'
    data: Array<{
      id: string
      object: 'invoice_payment'
      amount_paid: number | null
      amount_requested: number
      currency: string
      invoice: string
      is_default: boolean
      payment: { type: 'payment_intent'; payment_intent: string }
      status: 'paid' | 'open'
    }>
    has_more: false
    url: string
  }
  subscription?: string
  subscription_details?: { metadata: Metadata }
  payment_intent?: string | null
}

export interface FakeCharge {
  id: string
  object: 'charge'
  amount: number
  amount_captured: number
  amount_refunded: number
  currency: string
  livemode: false
  paid: boolean
  payment_intent: string
  refunded: boolean
  status: 'succeeded'
}

/** A Stripe event (snapshot payload) around any object. */
export interface FakeEvent<T = unknown> {
  id: string
  object: 'event'
  api_version: string
  created: number
  data: { object: T }
  livemode: false
  pending_webhooks: number
  request: { id: null; idempotency_key: null }
  type: string
}

export interface FakeStripe {
  /** The API origin, for the provider's `apiUrl`. */
  url: string
  /** Every request answered, oldest first; tests may empty it (`requests.length = 0`). */
  requests: RecordedRequest[]
  close(): Promise<void>
  /** The buyer finishes Checkout: a customer (if the session had none) and a subscription, active when paid. */
  completeCheckout(sessionId: string, options?: { paid?: boolean }): FakeCheckoutSession
  /** The session runs out unpaid. */
  expireCheckout(sessionId: string): FakeCheckoutSession
  checkoutSession(id: string): FakeCheckoutSession | undefined
  subscription(id: string): FakeSubscription | undefined
  /** An invoice the fake made itself (a plan change's, paid at once), for the test to deliver its event. */
  storedInvoice(id: string): FakeInvoice | undefined
  /** From now on the customer's saved card is declined (or accepted again) when Stripe charges it. */
  declineCharges(customerId: string, declined?: boolean): void
  /** Changes a subscription as Stripe would on its own (a renewal, a failed payment, the Dashboard). */
  setSubscription(id: string, patch: Partial<FakeSubscription>): FakeSubscription
  /** The invoice Stripe makes for a subscription's current period. */
  invoice(
    subscriptionId: string,
    options?: { billingReason?: string; shape?: 'current' | 'legacy'; paid?: boolean; paymentIntentId?: string },
  ): FakeInvoice
  /** A charge on a payment intent, refunded by `amountRefunded` so far. */
  charge(paymentIntentId: string, options: { amount: number; amountRefunded: number; currency?: string }): FakeCharge
  event<T>(type: string, object: T, options?: { id?: string; created?: Date }): FakeEvent<T>
}

const paymentBehaviors = ['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete']

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`
const nowSeconds = () => Math.floor(Date.now() / 1000)

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; decline_code?: string; param?: string; message: string },
  ) {
    super(body.message)
  }
}

const missing = (kind: string, id: string, param = 'id', status = 404) =>
  new StripeApiError(status, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${kind}: '${id}'`,
  })

const invalid = (param: string, message: string, code = 'parameter_invalid') =>
  new StripeApiError(400, { type: 'invalid_request_error', code, param, message })

/**
 * Reads `application/x-www-form-urlencoded` with Stripe's bracket keys (`line_items[0][price_data][currency]=usd`)
 * back into nested objects; keys that are all indexes become arrays.
 */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const head = key.match(/^[^[]+/)?.[0]
    if (!head) continue
    const path = [head, ...Array.from(key.slice(head.length).matchAll(/\[([^\]]*)\]/g), (match) => match[1] ?? '')]
    if (path.includes('__proto__')) continue
    let node = root
    for (const [index, segment] of path.entries()) {
      if (index === path.length - 1) {
        node[segment] = value
      } else {
        let next = node[segment]
        if (typeof next !== 'object' || next === null) {
          next = {}
          node[segment] = next
        }
        node = next as Record<string, unknown>
      }
    }
  }
  return arraysOf(root) as Record<string, unknown>
}

function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value).map(([key, child]) => [key, arraysOf(child)] as const)
  if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child)
  }
  return Object.fromEntries(entries)
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function text(body: Record<string, unknown>, param: string, required: true): string
function text(body: Record<string, unknown>, param: string, required?: false): string | undefined
function text(body: Record<string, unknown>, param: string, required = false): string | undefined {
  const value = body[param]
  if (value === undefined || value === '') {
    if (required) throw invalid(param, `Missing required param: ${param}.`, 'parameter_missing')
    return undefined
  }
  if (typeof value !== 'string') throw invalid(param, `Invalid string: ${param}`)
  return value
}

function integer(value: unknown, param: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN
  if (!Number.isSafeInteger(number)) throw invalid(param, `Invalid integer: ${String(value)}`)
  return number
}

function boolean(value: unknown, param: string): boolean {
  if (value === 'true') return true
  if (value === 'false') return false
  throw invalid(param, `Invalid boolean: ${String(value)}`)
}

function metadataOf(value: unknown, param = 'metadata'): Metadata {
  if (value === undefined || value === '') return {}
  if (!isObject(value)) throw invalid(param, 'Invalid hash')
  const metadata: Metadata = {}
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') throw invalid(`${param}[${key}]`, 'Metadata values must be strings')
    metadata[key] = entry
  }
  return metadata
}

function addInterval(startSeconds: number, interval: Interval): number {
  const end = new Date(startSeconds * 1000)
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1)
  else end.setUTCDate(end.getUTCDate() + (interval === 'week' ? 7 : 1))
  return Math.floor(end.getTime() / 1000)
}

interface PriceInput {
  currency: string
  unitAmount: number
  interval: Interval
  product: { id: string } | { name: string }
}

/** `price_data` as Checkout (product or product_data) or a subscription item (product only) takes it. */
function priceDataOf(value: unknown, param: string, allowProductData: boolean): PriceInput {
  if (!isObject(value)) throw invalid(param, 'Invalid hash')
  const known = ['currency', 'unit_amount', 'recurring', 'product', ...(allowProductData ? ['product_data'] : [])]
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      throw invalid(`${param}[${key}]`, `Received unknown parameter: ${param}[${key}]`, 'parameter_unknown')
  }
  const currency = text(value, 'currency', true)
  if (!/^[a-z]{3}$/.test(currency)) throw invalid(`${param}[currency]`, `Invalid currency: ${currency}`)
  const unitAmount = integer(value.unit_amount, `${param}[unit_amount]`)
  const recurring = value.recurring
  if (!isObject(recurring)) throw invalid(`${param}[recurring]`, 'A recurring price is required', 'parameter_missing')
  const interval = recurring.interval
  if (interval !== 'day' && interval !== 'week' && interval !== 'month' && interval !== 'year') {
    throw invalid(`${param}[recurring][interval]`, `Invalid interval: ${String(interval)}`)
  }
  const productId = text(value, 'product')
  const productData = value.product_data
  if (productId) return { currency, unitAmount, interval, product: { id: productId } }
  if (isObject(productData))
    return { currency, unitAmount, interval, product: { name: text(productData, 'name', true) } }
  throw invalid(`${param}[product]`, 'One of product or product_data is required', 'parameter_missing')
}

interface StoredSession {
  session: FakeCheckoutSession
  lineItems: Array<{ price: PriceInput; quantity: number }>
  subscriptionMetadata: Metadata
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const json = JSON.stringify(body)
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(json),
    'request-id': newId('req'),
    ...headers,
  })
  response.end(json)
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = []
  const sessions = new Map<string, StoredSession>()
  const customers = new Map<string, { id: string; object: 'customer'; email: string | null; metadata: Metadata }>()
  const products = new Map<string, FakeProduct>()
  const subscriptions = new Map<string, FakeSubscription>()
  /** Invoices the fake made itself (a plan change's proration), by id. */
  const invoices = new Map<string, FakeInvoice>()
  /** Each customer's balance: negative while it holds credit, spent on the next invoices. */
  const balances = new Map<string, number>()
  const decliningCustomers = new Set<string>()
  /** Which invoice each payment intent paid (what GET /v1/invoice_payments?payment[...] answers). */
  const invoiceOfPaymentIntent = new Map<string, { invoice: string; amount: number; currency: string }>()
  const idempotent = new Map<string, { route: string; status: number; body: unknown }>()
  let url = ''

  function createCustomer(email: string | null, metadata: Metadata = {}) {
    const customer = { id: newId('cus'), object: 'customer' as const, email, metadata }
    customers.set(customer.id, customer)
    return customer
  }

  function createProduct(name: string, metadata: Metadata = {}): FakeProduct {
    const product: FakeProduct = {
      id: newId('prod'),
      object: 'product',
      active: true,
      created: nowSeconds(),
      livemode: false,
      metadata,
      name,
    }
    products.set(product.id, product)
    return product
  }

  function createPrice(input: PriceInput): FakePrice {
    let productId: string
    if ('id' in input.product) {
      if (!products.has(input.product.id)) throw missing('product', input.product.id, 'price_data[product]', 400)
      productId = input.product.id
    } else {
      productId = createProduct(input.product.name).id
    }
    return {
      id: newId('price'),
      object: 'price',
      active: false,
      created: nowSeconds(),
      currency: input.currency,
      livemode: false,
      metadata: {},
      product: productId,
      recurring: { interval: input.interval, interval_count: 1, usage_type: 'licensed' },
      type: 'recurring',
      unit_amount: input.unitAmount,
      unit_amount_decimal: String(input.unitAmount),
    }
  }

  function storedSession(id: string): StoredSession {
    const stored = sessions.get(id)
    if (!stored) throw missing('checkout.session', id)
    return stored
  }

  function storedSubscription(id: string): FakeSubscription {
    const subscription = subscriptions.get(id)
    if (!subscription) throw missing('subscription', id)
    return subscription
  }

  function createCheckoutSession(body: Record<string, unknown>): FakeCheckoutSession {
    if (body.mode !== 'subscription') throw invalid('mode', 'This fake only makes subscription-mode sessions')
    const customer = text(body, 'customer')
    const customerEmail = text(body, 'customer_email')
    if (customer && customerEmail) {
      throw invalid('customer_email', 'You may only specify one of these parameters: customer, customer_email.')
    }
    if (customer && !customers.has(customer)) throw missing('customer', customer, 'customer', 400)
    const rawLineItems = body.line_items
    if (!Array.isArray(rawLineItems) || rawLineItems.length === 0) {
      throw invalid('line_items', 'In subscription mode, line_items is required.', 'parameter_missing')
    }
    const lineItems = rawLineItems.map((item: unknown, index) => {
      const param = `line_items[${index}]`
      if (!isObject(item)) throw invalid(param, 'Invalid hash')
      return {
        price: priceDataOf(item.price_data, `${param}[price_data]`, true),
        quantity: integer(item.quantity ?? '1', `${param}[quantity]`),
      }
    })
    const currencies = new Set(lineItems.map((item) => item.price.currency))
    if (currencies.size > 1) throw invalid('line_items', 'All prices must be in the same currency.')
    const methods = body.payment_method_types
    if (methods !== undefined && (!Array.isArray(methods) || !methods.every((method) => typeof method === 'string'))) {
      throw invalid('payment_method_types', 'Invalid array')
    }
    const subscriptionData = isObject(body.subscription_data) ? body.subscription_data : {}
    const id = newId('cs_test')
    const created = nowSeconds()
    const expiresAt = body.expires_at === undefined ? created + 24 * 60 * 60 : integer(body.expires_at, 'expires_at')
    // Stripe takes 30 minutes to 24 hours (a few seconds of leeway for the clock between the caller and Stripe).
    if (expiresAt < created + 30 * 60 - 5 || expiresAt > created + 24 * 60 * 60 + 5) {
      throw invalid('expires_at', 'The `expires_at` timestamp must be between 30 minutes and 24 hours from now.')
    }
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      amount_total: lineItems.reduce((sum, item) => sum + item.price.unitAmount * item.quantity, 0),
      cancel_url: text(body, 'cancel_url') ?? null,
      client_reference_id: text(body, 'client_reference_id') ?? null,
      created,
      currency: lineItems[0]?.price.currency ?? 'usd',
      customer: customer ?? null,
      customer_email: customerEmail ?? null,
      expires_at: expiresAt,
      livemode: false,
      locale: text(body, 'locale') ?? null,
      metadata: metadataOf(body.metadata),
      mode: 'subscription',
      payment_method_types: (methods as string[] | undefined) ?? ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: text(body, 'success_url', true),
      url: `${url}/c/pay/${id}`,
    }
    sessions.set(id, {
      session,
      lineItems,
      subscriptionMetadata: metadataOf(subscriptionData.metadata, 'subscription_data[metadata]'),
    })
    return session
  }

  /** The item changes a request asks for, checked whole before any is applied (Stripe applies all or nothing). */
  function itemChangesOf(subscription: FakeSubscription, rawItems: unknown, prefix: string) {
    if (!Array.isArray(rawItems)) throw invalid(prefix, 'Invalid array')
    return rawItems.map((item: unknown, index) => {
      const param = `${prefix}[${index}]`
      if (!isObject(item)) throw invalid(param, 'Invalid hash')
      const itemId = text(item, 'id')
      const existing = subscription.items.data.find((candidate) => candidate.id === itemId)
      if (itemId && !existing) throw missing('subscription_item', itemId, `${param}[id]`, 400)
      if (!existing) throw invalid(`${param}[id]`, 'This fake only updates existing items', 'parameter_missing')
      return {
        existing,
        price:
          item.price_data === undefined
            ? undefined
            : createPrice(priceDataOf(item.price_data, `${param}[price_data]`, false)),
        quantity: item.quantity === undefined ? undefined : integer(item.quantity, `${param}[quantity]`),
        deleted: item.deleted === undefined ? false : boolean(item.deleted, `${param}[deleted]`),
      }
    })
  }

  type ItemChange = ReturnType<typeof itemChangesOf>[number]

  /** The instant a proration is computed for: `proration_date` (within the current period) or now. */
  function prorationDateOf(subscription: FakeSubscription, value: unknown, param: string): number {
    if (value === undefined) return nowSeconds()
    const at = integer(value, param)
    const item = subscription.items.data[0]
    const start = item?.current_period_start ?? subscription.current_period_start ?? subscription.start_date
    const end = item?.current_period_end ?? subscription.current_period_end ?? start
    if (at < start || at > end) throw invalid(param, 'The proration date must be within the current period.')
    return at
  }

  /**
   * Stripe's proration lines for item changes at `at`: the unused time of the old price credited, and the new price
   * for the same remaining time, or, when the billing interval changes, for a whole new period from `at`.
   */
  function prorationLines(subscription: FakeSubscription, changes: ItemChange[], at: number): FakeInvoiceLine[] {
    const lines: FakeInvoiceLine[] = []
    for (const change of changes) {
      if (change.deleted || (!change.price && change.quantity === undefined)) continue
      const item = change.existing
      const price = change.price ?? item.price
      const quantity = change.quantity ?? item.quantity
      const start = item.current_period_start ?? subscription.current_period_start ?? subscription.start_date
      const end = item.current_period_end ?? subscription.current_period_end ?? start
      const unused = Math.min(1, Math.max(0, (end - at) / Math.max(1, end - start)))
      const name = (id: string) => products.get(id)?.name ?? 'product'
      const line = (amount: number, description: string, period: { start: number; end: number }, q: number) => ({
        id: newId('il'),
        object: 'line_item' as const,
        amount,
        currency: price.currency,
        description,
        metadata: {},
        period,
        quantity: q,
      })
      lines.push(
        line(
          -Math.round(item.price.unit_amount * item.quantity * unused),
          `Unused time on ${item.quantity} × ${name(item.price.product)}`,
          { start: at, end },
          item.quantity,
        ),
      )
      if (price.recurring.interval !== item.price.recurring.interval) {
        lines.push(
          line(
            price.unit_amount * quantity,
            `${quantity} × ${name(price.product)}`,
            {
              start: at,
              end: addInterval(at, price.recurring.interval),
            },
            quantity,
          ),
        )
      } else {
        lines.push(
          line(
            Math.round(price.unit_amount * quantity * unused),
            `Remaining time on ${quantity} × ${name(price.product)}`,
            { start: at, end },
            quantity,
          ),
        )
      }
    }
    return lines
  }

  /** An invoice of proration lines, the customer's balance spent first; `store` makes it real and paid. */
  function prorationInvoice(subscription: FakeSubscription, lines: FakeInvoiceLine[], store: boolean) {
    const total = lines.reduce((sum, line) => sum + line.amount, 0)
    const startingBalance = balances.get(subscription.customer) ?? 0
    const amountDue = Math.max(0, total + startingBalance)
    const id = store ? newId('in') : `upcoming_${newId('in')}`
    const paymentIntent = newId('pi')
    const metadata = { ...subscription.metadata }
    const invoice: FakeInvoice & { total: number; starting_balance: number; ending_balance: number | null } = {
      id,
      object: 'invoice',
      amount_due: amountDue,
      amount_paid: store ? amountDue : 0,
      amount_remaining: store ? 0 : amountDue,
      billing_reason: 'subscription_update',
      created: nowSeconds(),
      currency: subscription.currency,
      customer: subscription.customer,
      hosted_invoice_url: `${url}/i/${id}`,
      lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
      livemode: false,
      status: store ? 'paid' : 'open',
      total,
      starting_balance: startingBalance,
      ending_balance: store ? Math.min(0, total + startingBalance) : null,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata, subscription: subscription.id },
      },
    }
    if (store) {
      invoice.payments = {
        object: 'list',
        data: [
          {
            id: newId('inpay'),
            object: 'invoice_payment',
            amount_paid: amountDue,
            amount_requested: amountDue,
            currency: subscription.currency,
            invoice: id,
            is_default: true,
            payment: { type: 'payment_intent', payment_intent: paymentIntent },
            status: 'paid',
          },
        ],
        has_more: false,
        url: `/v1/invoice_payments?invoice=${id}`,
      }
      balances.set(subscription.customer, Math.min(0, total + startingBalance))
      invoices.set(id, invoice)
      subscription.latest_invoice = id
      invoiceOfPaymentIntent.set(paymentIntent, { invoice: id, amount: amountDue, currency: subscription.currency })
    }
    return invoice
  }

  function previewInvoice(body: Record<string, unknown>) {
    const subscription = storedSubscription(text(body, 'subscription', true))
    const details = isObject(body.subscription_details) ? body.subscription_details : {}
    const changes = itemChangesOf(subscription, details.items ?? [], 'subscription_details[items]')
    const at = prorationDateOf(subscription, details.proration_date, 'subscription_details[proration_date]')
    return prorationInvoice(subscription, prorationLines(subscription, changes, at), false)
  }

  function updateSubscription(id: string, body: Record<string, unknown>): FakeSubscription {
    const subscription = storedSubscription(id)
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw invalid('id', 'A canceled subscription can only update its cancellation_details and metadata.')
    }
    const proration = body.proration_behavior
    if (
      proration !== undefined &&
      proration !== 'create_prorations' &&
      proration !== 'none' &&
      proration !== 'always_invoice'
    ) {
      throw invalid('proration_behavior', `Invalid proration_behavior: ${String(proration)}`)
    }
    const paymentBehavior = body.payment_behavior ?? 'allow_incomplete'
    if (!paymentBehaviors.includes(paymentBehavior as string)) {
      throw invalid('payment_behavior', `Invalid payment_behavior: ${String(paymentBehavior)}`)
    }
    // Validate every item before changing anything, as Stripe applies an update whole or not at all.
    const itemChanges = itemChangesOf(subscription, body.items ?? [], 'items')
    const at = prorationDateOf(subscription, body.proration_date, 'proration_date')
    const lines = proration === 'always_invoice' ? prorationLines(subscription, itemChanges, at) : []
    const due = lines.reduce((sum, line) => sum + line.amount, 0) + (balances.get(subscription.customer) ?? 0)
    const declined = lines.length > 0 && due > 0 && decliningCustomers.has(subscription.customer)
    if (declined && paymentBehavior === 'error_if_incomplete') {
      // Stripe voids the invoice it tried and leaves the subscription as it was.
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      })
    }
    if (declined && paymentBehavior !== 'allow_incomplete') {
      throw invalid('payment_behavior', `The fake answers only allow_incomplete and error_if_incomplete declines`)
    }
    const cancelAtPeriodEnd =
      body.cancel_at_period_end === undefined ? undefined : boolean(body.cancel_at_period_end, 'cancel_at_period_end')
    const metadata = body.metadata === undefined ? undefined : metadataOf(body.metadata)

    for (const change of itemChanges) {
      if (change.deleted) {
        subscription.items.data = subscription.items.data.filter((item) => item !== change.existing)
        continue
      }
      // A new billing interval restarts the billing cycle at the change, as Stripe does.
      if (change.price && change.price.recurring.interval !== change.existing.price.recurring.interval) {
        change.existing.current_period_start = at
        change.existing.current_period_end = addInterval(at, change.price.recurring.interval)
      }
      if (change.price) change.existing.price = change.price
      if (change.quantity !== undefined) change.existing.quantity = change.quantity
    }
    if (cancelAtPeriodEnd !== undefined) {
      const periodEnd = subscription.items.data[0]?.current_period_end ?? subscription.current_period_end ?? null
      subscription.cancel_at_period_end = cancelAtPeriodEnd
      // Newer API versions mirror "at period end" in cancel_at and stamp when the cancellation was asked for.
      subscription.cancel_at = cancelAtPeriodEnd ? periodEnd : null
      subscription.canceled_at = cancelAtPeriodEnd ? nowSeconds() : null
    }
    if (metadata) {
      // Stripe merges metadata; an empty value removes the key.
      for (const [key, value] of Object.entries(metadata)) {
        if (value === '') delete subscription.metadata[key]
        else subscription.metadata[key] = value
      }
    }
    if (lines.length > 0 && declined) {
      // Stripe's default: the change stands, its invoice stays open, and the subscription falls past due.
      const invoice = prorationInvoice(subscription, lines, false)
      const id = newId('in')
      invoices.set(id, { ...invoice, id, hosted_invoice_url: `${url}/i/${id}` })
      subscription.latest_invoice = id
      subscription.status = 'past_due'
    } else if (lines.length > 0) prorationInvoice(subscription, lines, true)
    return subscription
  }

  function route(
    method: string,
    path: string,
    body: Record<string, unknown>,
    query: Record<string, unknown> = {},
  ): unknown {
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const payment = (query.payment ?? {}) as { type?: string; payment_intent?: string }
      const paid = payment.payment_intent ? invoiceOfPaymentIntent.get(payment.payment_intent) : undefined
      const data = paid
        ? [
            {
              id: `inpay_${payment.payment_intent}`,
              object: 'invoice_payment',
              invoice: paid.invoice,
              amount_paid: paid.amount,
              currency: paid.currency,
              is_default: true,
              status: 'paid',
              payment: { type: 'payment_intent', payment_intent: payment.payment_intent },
            },
          ]
        : []
      return { object: 'list', data, has_more: false, url: '/v1/invoice_payments' }
    }
    const [, collection, id] = path.match(/^\/v1\/([a-z_/]+?)(?:\/([^/]+))?$/) ?? []
    const objectId = id === undefined ? undefined : decodeURIComponent(id)
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(body)
    if (method === 'GET' && collection === 'checkout/sessions' && objectId) return storedSession(objectId).session
    const expiring = method === 'POST' ? path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/) : null
    if (expiring?.[1]) {
      const { session } = storedSession(decodeURIComponent(expiring[1]))
      // Stripe expires only open sessions, and says so for any other.
      if (session.status !== 'open') {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        })
      }
      Object.assign(session, { status: 'expired', url: null } satisfies Partial<FakeCheckoutSession>)
      return session
    }
    if (method === 'POST' && path === '/v1/customers') {
      return createCustomer(text(body, 'email') ?? null, metadataOf(body.metadata))
    }
    if (method === 'GET' && collection === 'customers' && objectId) {
      const customer = customers.get(objectId)
      if (!customer) throw missing('customer', objectId)
      return customer
    }
    if (method === 'POST' && path === '/v1/products') {
      const id = text(body, 'id')
      if (id && products.has(id)) {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'resource_already_exists',
          message: `Product already exists.`,
          param: 'id',
        })
      }
      const product = createProduct(text(body, 'name', true), metadataOf(body.metadata))
      if (!id) return product
      products.delete(product.id)
      const named = { ...product, id }
      products.set(id, named)
      return named
    }
    if (method === 'GET' && collection === 'products' && objectId) {
      const product = products.get(objectId)
      if (!product) throw missing('product', objectId)
      return product
    }
    if (method === 'POST' && path === '/v1/invoices/create_preview') return previewInvoice(body)
    if (method === 'GET' && collection === 'invoices' && objectId) {
      const invoice = invoices.get(objectId)
      if (!invoice) throw missing('invoice', objectId)
      return invoice
    }
    if (collection === 'subscriptions' && objectId) {
      if (method === 'GET') return storedSubscription(objectId)
      if (method === 'POST') return updateSubscription(objectId, body)
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = text(body, 'customer', true)
      if (!customers.has(customer)) throw missing('customer', customer, 'customer', 400)
      const id = newId('bps')
      return {
        id,
        object: 'billing_portal.session',
        created: nowSeconds(),
        customer,
        livemode: false,
        locale: text(body, 'locale') ?? null,
        return_url: text(body, 'return_url') ?? null,
        url: `${url}/p/session/${id}`,
      }
    }
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    })
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const target = new URL(request.url ?? '/', url)
    const method = request.method ?? 'GET'
    const raw = await readBody(request)
    const header = (name: string) => {
      const value = request.headers[name]
      return typeof value === 'string' ? value : null
    }
    const recorded: RecordedRequest = {
      method,
      path: target.pathname,
      query: parseStripeForm(target.search.slice(1)),
      body: parseStripeForm(raw),
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
    }
    requests.push(recorded)

    if (!/^Bearer sk_(test|live)_\S+$/.test(header('authorization') ?? '')) {
      send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
      return
    }
    const routeKey = `${method} ${target.pathname}`
    const key = method === 'POST' ? recorded.idempotencyKey : null
    const replay = key ? idempotent.get(key) : undefined
    if (replay) {
      if (replay.route !== routeKey) {
        send(response, 400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used for the same endpoint they were first used for.`,
          },
        })
        return
      }
      send(response, replay.status, replay.body, { 'idempotent-replayed': 'true' })
      return
    }
    let status = 200
    let body: unknown
    try {
      // A copy, so that later changes to stored objects do not rewrite an answer already given (or replayed).
      body = structuredClone(route(method, target.pathname, recorded.body, recorded.query))
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error
      status = error.status
      body = { error: error.body }
    }
    if (key) idempotent.set(key, { route: routeKey, status, body })
    send(response, status, body)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, { error: { type: 'api_error', message: String(error) } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),

    completeCheckout(sessionId, { paid = true } = {}) {
      const stored = storedSession(sessionId)
      const { session } = stored
      if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}`)
      const customerId = session.customer ?? createCustomer(session.customer_email).id
      const subscriptionId = newId('sub')
      const start = nowSeconds()
      const items = stored.lineItems.map(
        (item): FakeSubscriptionItem => ({
          id: newId('si'),
          object: 'subscription_item',
          created: start,
          current_period_start: start,
          current_period_end: addInterval(start, item.price.interval),
          metadata: {},
          price: createPrice(item.price),
          quantity: item.quantity,
          subscription: subscriptionId,
        }),
      )
      subscriptions.set(subscriptionId, {
        id: subscriptionId,
        object: 'subscription',
        cancel_at: null,
        cancel_at_period_end: false,
        canceled_at: null,
        created: start,
        currency: session.currency,
        customer: customerId,
        ended_at: null,
        items: {
          object: 'list',
          data: items,
          has_more: false,
          url: `/v1/subscription_items?subscription=${subscriptionId}`,
        },
        latest_invoice: null,
        livemode: false,
        metadata: { ...stored.subscriptionMetadata },
        start_date: start,
        status: paid ? 'active' : 'incomplete',
      })
      Object.assign(session, {
        customer: customerId,
        payment_status: paid ? 'paid' : 'unpaid',
        status: 'complete',
        subscription: subscriptionId,
        url: null,
      } satisfies Partial<FakeCheckoutSession>)
      return structuredClone(session)
    },

    expireCheckout(sessionId) {
      const { session } = storedSession(sessionId)
      Object.assign(session, { status: 'expired', url: null } satisfies Partial<FakeCheckoutSession>)
      return structuredClone(session)
    },

    checkoutSession: (id) => {
      const stored = sessions.get(id)
      return stored && structuredClone(stored.session)
    },

    subscription: (id) => {
      const subscription = subscriptions.get(id)
      return subscription && structuredClone(subscription)
    },

    declineCharges(customerId, declined = true) {
      if (declined) decliningCustomers.add(customerId)
      else decliningCustomers.delete(customerId)
    },
    setSubscription(id, patch) {
      const subscription = subscriptions.get(id)
      if (!subscription) throw new Error(`No fake subscription ${id}`)
      Object.assign(subscription, structuredClone(patch))
      return structuredClone(subscription)
    },

    invoice(
      subscriptionId,
      { billingReason = 'subscription_create', shape = 'current', paid = true, paymentIntentId } = {},
    ) {
      const subscription = subscriptions.get(subscriptionId)
      if (!subscription) throw new Error(`No fake subscription ${subscriptionId}`)
      const id = newId('in')
      const paymentIntent = paymentIntentId ?? newId('pi')
      const metadata = { ...subscription.metadata }
      const lines = subscription.items.data.map(
        (item): FakeInvoiceLine => ({
          id: newId('il'),
          object: 'line_item',
          amount: item.price.unit_amount * item.quantity,
          currency: item.price.currency,
          description: `${item.quantity} × ${products.get(item.price.product)?.name ?? 'product'}`,
          metadata,
          period: {
            start: item.current_period_start ?? subscription.current_period_start ?? subscription.start_date,
            end: item.current_period_end ?? subscription.current_period_end ?? subscription.start_date,
          },
          quantity: item.quantity,
        }),
      )
      const total = lines.reduce((sum, line) => sum + line.amount, 0)
      const invoice: FakeInvoice = {
        id,
        object: 'invoice',
        amount_due: total,
        amount_paid: paid ? total : 0,
        amount_remaining: paid ? 0 : total,
        billing_reason: billingReason,
        created: nowSeconds(),
        currency: subscription.currency,
        customer: subscription.customer,
        hosted_invoice_url: `${url}/i/${id}`,
        lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
        livemode: false,
        status: paid ? 'paid' : 'open',
      }
      if (shape === 'current') {
        invoice.parent = {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { metadata, subscription: subscriptionId },
        }
        invoice.payments = {
          object: 'list',
          data: [
            {
              id: newId('inpay'),
              object: 'invoice_payment',
              amount_paid: paid ? total : null,
              amount_requested: total,
              currency: subscription.currency,
              invoice: id,
              is_default: true,
              payment: { type: 'payment_intent', payment_intent: paymentIntent },
              status: paid ? 'paid' : 'open',
            },
          ],
          has_more: false,
          url: `/v1/invoice_payments?invoice=${id}`,
        }
      } else {
        invoice.subscription = subscriptionId
        invoice.subscription_details = { metadata }
        invoice.payment_intent = paymentIntent
      }
      subscription.latest_invoice = id
      invoiceOfPaymentIntent.set(paymentIntent, { invoice: id, amount: total, currency: subscription.currency })
      return invoice
    },

    storedInvoice: (id) => {
      const invoice = invoices.get(id)
      return invoice && structuredClone(invoice)
    },

    charge: (paymentIntentId, { amount, amountRefunded, currency = 'usd' }) => ({
      id: newId('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: amountRefunded,
      currency,
      livemode: false,
      paid: true,
      payment_intent: paymentIntentId,
      refunded: amountRefunded >= amount,
      status: 'succeeded',
    }),

    event: (type, object, { id = newId('evt'), created = new Date() } = {}) => ({
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(created.getTime() / 1000),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }),
  }
}

/** A webhook delivery of `event` as Stripe makes it: the JSON body and a `Stripe-Signature` header for the secret. */
export function signedDelivery(
  event: FakeEvent,
  webhookSecret: string,
  options: { timestamp?: Date } = {},
): { body: string; headers: Headers } {
  const body = JSON.stringify(event, null, 2)
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: webhookSecret,
    ...(options.timestamp && { timestamp: Math.floor(options.timestamp.getTime() / 1000) }),
  })
  return {
    body,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature }),
  }
}
