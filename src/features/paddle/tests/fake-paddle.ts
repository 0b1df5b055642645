// A fake Paddle Billing API for tests: a node:http server on 127.0.0.1 that answers the calls PaddlePaymentProvider
// makes through the official SDK, in Paddle's documented shapes (snake_case JSON, amounts as strings of minor units,
// `{ data, meta }` answers, `{ error: { type, code, detail } }` failures), and keeps its objects in memory. Tests point
// the provider at it with `PADDLE_API_URL`, drive it with helpers that stand in for the buyer in Paddle.js
// (completeCheckout) and for Paddle's own changes (renew, refund, setSubscription), and build the webhook deliveries
// Paddle would send, signed the way Paddle signs them (`Paddle-Signature: ts=…;h1=…`).
import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

type Json = Record<string, unknown>

export interface RecordedPaddleRequest {
  method: string
  path: string
  query: URLSearchParams
  body: Json | null
  authorization: string | null
}

export interface FakePaddlePrice {
  id: string
  product_id: string
  name: string | null
  description: string
  type: 'custom'
  billing_cycle: { interval: 'month' | 'year'; frequency: number } | null
  trial_period: null
  tax_mode: 'account_setting'
  unit_price: { amount: string; currency_code: string }
  unit_price_overrides: []
  quantity: { minimum: number; maximum: number }
  status: 'active'
  custom_data: Json | null
  import_meta: null
  product: FakePaddleProduct
  created_at: string
  updated_at: string
}

export interface FakePaddleProduct {
  id: string
  name: string
  description: null
  type: 'custom'
  tax_category: string
  image_url: null
  custom_data: Json | null
  status: 'active'
  import_meta: null
  created_at: string
  updated_at: string
}

export interface FakePaddleTransaction {
  id: string
  status: 'draft' | 'ready' | 'billed' | 'paid' | 'completed' | 'canceled' | 'past_due'
  customer_id: string | null
  address_id: string | null
  business_id: null
  custom_data: Json | null
  currency_code: string
  origin: 'api' | 'web' | 'subscription_recurring' | 'subscription_update' | 'subscription_payment_method_change'
  subscription_id: string | null
  invoice_id: string | null
  invoice_number: string | null
  collection_mode: 'automatic'
  discount_id: null
  billing_details: null
  billing_period: { starts_at: string; ends_at: string } | null
  items: { price_id: string; price: FakePaddlePrice; quantity: number; proration: null }[]
  details: {
    tax_rates_used: []
    totals: Json
    line_items: []
  }
  payments: []
  checkout: { url: string | null }
  created_at: string
  updated_at: string
  billed_at: string | null
}

export interface FakePaddleSubscription {
  id: string
  status: 'active' | 'canceled' | 'past_due' | 'paused' | 'trialing'
  customer_id: string
  address_id: string
  business_id: null
  currency_code: string
  created_at: string
  updated_at: string
  started_at: string
  first_billed_at: string
  next_billed_at: string | null
  paused_at: null
  canceled_at: string | null
  discount: null
  collection_mode: 'automatic'
  billing_details: null
  current_billing_period: { starts_at: string; ends_at: string } | null
  billing_cycle: { interval: 'month' | 'year'; frequency: number }
  scheduled_change: { action: 'cancel' | 'pause' | 'resume'; effective_at: string; resume_at: null } | null
  management_urls: null
  items: {
    status: 'active' | 'inactive'
    quantity: number
    recurring: true
    created_at: string
    updated_at: string
    previously_billed_at: string | null
    next_billed_at: string | null
    trial_dates: null
    price: FakePaddlePrice
    product: FakePaddleProduct
  }[]
  custom_data: Json | null
  import_meta: null
}

export interface FakePaddleAdjustment {
  id: string
  action: 'refund' | 'credit' | 'chargeback'
  type: 'partial' | 'full'
  transaction_id: string
  subscription_id: string | null
  customer_id: string
  reason: string
  credit_applied_to_balance: boolean
  currency_code: string
  status: 'pending_approval' | 'approved' | 'rejected' | 'reversed'
  items: []
  totals: { subtotal: string; tax: string; total: string; fee: string; earnings: string; currency_code: string }
  payout_totals: null
  tax_rates_used: []
  created_at: string
  updated_at: string
}

/** A webhook event as Paddle sends it. */
export interface FakePaddleEvent {
  event_id: string
  event_type: string
  occurred_at: string
  notification_id: string
  data: unknown
}

export interface FakePaddle {
  url: string
  requests: RecordedPaddleRequest[]
  close(): Promise<void>
  /** The buyer pays in Paddle.js: a customer, a completed transaction and an active subscription. */
  completeCheckout(transactionId: string): { transaction: FakePaddleTransaction; subscription: FakePaddleSubscription }
  cancelTransaction(transactionId: string): FakePaddleTransaction
  transaction(id: string): FakePaddleTransaction | undefined
  subscription(id: string): FakePaddleSubscription | undefined
  /** Paddle renews the subscription: a new period and a completed `subscription_recurring` transaction. */
  renew(subscriptionId: string): { subscription: FakePaddleSubscription; transaction: FakePaddleTransaction }
  /** One refund of part of a transaction: an adjustment of its own (Paddle keeps no running total). */
  refund(transactionId: string, amount: number, status?: FakePaddleAdjustment['status']): FakePaddleAdjustment
  /** A change made at Paddle without Hatch (in the dashboard, or by the customer in the portal). */
  setSubscription(id: string, patch: Partial<FakePaddleSubscription>): FakePaddleSubscription
  /** Moves Paddle's clock on: a change made now is prorated as of that later moment. */
  advanceClock(ms: number): void
  /** A transaction Paddle makes without Hatch: a card update (origin `subscription_payment_method_change`, zero). */
  paymentMethodChange(subscriptionId: string): FakePaddleTransaction
  /** A sale another integration of the same Paddle account made, at a price Hatch did not make. */
  foreignSale(): FakePaddleTransaction
  /** Makes charges to this customer fail with Paddle's `subscription_payment_declined`, as a declined card does. */
  declineCharges(customerId: string, declined?: boolean): void
  /** The transactions of a subscription, oldest first. */
  transactionsOf(subscriptionId: string): FakePaddleTransaction[]
  event(type: string, data: unknown): FakePaddleEvent
}

const iso = (date: Date) => date.toISOString()
const paddleId = (prefix: string) => `${prefix}_01${randomBytes(12).toString('hex')}`

function addPeriod(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start)
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else end.setUTCMonth(end.getUTCMonth() + 1)
  return end
}

function totals(amount: number, currency: string): Json {
  const text = String(amount)
  return {
    subtotal: text,
    discount: '0',
    tax: '0',
    total: text,
    credit: '0',
    credit_to_balance: '0',
    balance: text,
    grand_total: text,
    fee: null,
    earnings: null,
    currency_code: currency,
  }
}

export async function startFakePaddle(options: { apiKey: string }): Promise<FakePaddle> {
  const transactions = new Map<string, FakePaddleTransaction>()
  const subscriptions = new Map<string, FakePaddleSubscription>()
  const adjustments: FakePaddleAdjustment[] = []
  const customers = new Set<string>()
  const declined = new Set<string>()
  const requests: RecordedPaddleRequest[] = []
  let url = ''
  /** How far Paddle's clock is ahead of this process's, for prorations made later than their preview. */
  let clockOffsetMs = 0

  /** Paddle makes a non-catalog price (and product) for each inline price it is sent. */
  const priceFrom = (body: Json, quantity: number): FakePaddlePrice => {
    const now = iso(new Date())
    const productBody = (body.product ?? {}) as Json
    const product: FakePaddleProduct = {
      id: paddleId('pro'),
      name: String(productBody.name ?? body.name ?? ''),
      description: null,
      type: 'custom',
      tax_category: String(productBody.tax_category ?? 'standard'),
      image_url: null,
      custom_data: (productBody.custom_data as Json | undefined) ?? null,
      status: 'active',
      import_meta: null,
      created_at: now,
      updated_at: now,
    }
    const unitPrice = body.unit_price as { amount: string; currency_code: string }
    const cycle = body.billing_cycle as { interval: 'month' | 'year'; frequency: number } | undefined
    const limits = (body.quantity as { minimum: number; maximum: number } | undefined) ?? {
      minimum: 1,
      maximum: 100,
    }
    if (quantity < limits.minimum || quantity > limits.maximum) {
      throw Object.assign(new Error('quantity outside the price limits'), {
        paddleCode: 'transaction_item_quantity_out_of_range',
      })
    }
    return {
      id: paddleId('pri'),
      product_id: product.id,
      name: (body.name as string | undefined) ?? null,
      description: String(body.description ?? ''),
      type: 'custom',
      billing_cycle: cycle ?? null,
      trial_period: null,
      tax_mode: 'account_setting',
      unit_price: { amount: String(unitPrice.amount), currency_code: unitPrice.currency_code },
      unit_price_overrides: [],
      quantity: limits,
      status: 'active',
      custom_data: (body.custom_data as Json | undefined) ?? null,
      import_meta: null,
      product,
      created_at: now,
      updated_at: now,
    }
  }

  const newTransaction = (
    fields: Pick<FakePaddleTransaction, 'origin' | 'currency_code' | 'items'> &
      Partial<FakePaddleTransaction> & { amount: number },
  ): FakePaddleTransaction => {
    const now = iso(new Date())
    const { amount, ...rest } = fields
    const transaction: FakePaddleTransaction = {
      id: paddleId('txn'),
      status: 'ready',
      customer_id: null,
      address_id: null,
      business_id: null,
      custom_data: null,
      subscription_id: null,
      invoice_id: null,
      invoice_number: null,
      collection_mode: 'automatic',
      discount_id: null,
      billing_details: null,
      billing_period: null,
      details: { tax_rates_used: [], totals: totals(amount, fields.currency_code), line_items: [] },
      payments: [],
      checkout: { url: null },
      created_at: now,
      updated_at: now,
      billed_at: null,
      ...rest,
    }
    transactions.set(transaction.id, transaction)
    return transaction
  }

  const amountOf = (items: { price: FakePaddlePrice; quantity: number }[]) =>
    items.reduce((sum, item) => sum + Number(item.price.unit_price.amount) * item.quantity, 0)

  const createTransaction = (body: Json): FakePaddleTransaction => {
    const items = ((body.items as Json[]) ?? []).map((item) => {
      const quantity = Number(item.quantity ?? 1)
      const price = priceFrom(item.price as Json, quantity)
      return { price_id: price.id, price, quantity, proration: null }
    })
    const transaction = newTransaction({
      origin: 'api',
      currency_code: String(body.currency_code),
      items,
      amount: amountOf(items),
      customer_id: (body.customer_id as string | undefined) ?? null,
      custom_data: (body.custom_data as Json | undefined) ?? null,
    })
    const page = (body.checkout as { url?: string } | undefined)?.url
    // Paddle adds the transaction to the checkout link, where Paddle.js finds it.
    transaction.checkout = { url: page ? `${page}?_ptxn=${transaction.id}` : null }
    return transaction
  }

  /** What an items change costs now: Paddle's `prorated_immediately`, computed here on its own. */
  const proration = (subscription: FakePaddleSubscription, items: { price: FakePaddlePrice; quantity: number }[]) => {
    const now = Date.now() + clockOffsetMs
    const period = subscription.current_billing_period
    const start = period ? new Date(period.starts_at).getTime() : now
    const end = period ? new Date(period.ends_at).getTime() : now
    const unused = Math.min(1, Math.max(0, end - now) / Math.max(1, end - start))
    const oldAmount = amountOf(subscription.items.filter((item) => item.status === 'active'))
    const newAmount = amountOf(items)
    const newCycle = items[0]?.price.billing_cycle?.interval ?? subscription.billing_cycle.interval
    const newPeriod = newCycle !== subscription.billing_cycle.interval
    const credit = Math.round(oldAmount * unused)
    const charge = newPeriod ? newAmount : Math.round(newAmount * unused)
    return { credit, charge, due: charge - credit, newCycle, newPeriod }
  }

  const itemsFrom = (body: Json) =>
    ((body.items as Json[]) ?? []).map((item) => {
      const quantity = Number(item.quantity ?? 1)
      return { price: priceFrom(item.price as Json, quantity), quantity }
    })

  const subscriptionItems = (items: { price: FakePaddlePrice; quantity: number }[]) => {
    const now = iso(new Date())
    return items.map(({ price, quantity }) => ({
      status: 'active' as const,
      quantity,
      recurring: true as const,
      created_at: now,
      updated_at: now,
      previously_billed_at: now,
      next_billed_at: null,
      trial_dates: null,
      price,
      product: price.product,
    }))
  }

  const send = (response: ServerResponse, status: number, data: unknown, meta: Json = {}) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ data, meta: { request_id: randomBytes(8).toString('hex'), ...meta } }))
  }
  const fail = (response: ServerResponse, status: number, type: string, code: string, detail: string) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ error: { type, code, detail, documentation_url: '' }, meta: { request_id: '' } }))
  }
  const notFound = (response: ServerResponse) => fail(response, 404, 'request_error', 'entity_not_found', 'Not found')

  const route = (request: RecordedPaddleRequest, response: ServerResponse) => {
    const { method, path, query } = request
    const body = request.body ?? {}
    if (request.authorization?.toLowerCase() !== `bearer ${options.apiKey}`.toLowerCase()) {
      return fail(response, 403, 'request_error', 'forbidden', 'Invalid API key')
    }
    if (method === 'POST' && path === '/transactions') {
      try {
        return send(response, 201, createTransaction(body))
      } catch (error) {
        const code = (error as { paddleCode?: string }).paddleCode ?? 'bad_request'
        return fail(response, 400, 'request_error', code, (error as Error).message)
      }
    }
    // Paddle's invoice PDF of a billed or completed transaction, behind a link that lasts an hour.
    const invoicePath = /^\/transactions\/([^/]+)\/invoice$/.exec(path)
    if (invoicePath && method === 'GET') {
      const transaction = transactions.get(decodeURIComponent(invoicePath[1] ?? ''))
      if (!transaction) return notFound(response)
      if (transaction.status !== 'billed' && transaction.status !== 'completed' && transaction.status !== 'paid') {
        return fail(response, 400, 'request_error', 'transaction_not_billed', 'The transaction has no invoice yet')
      }
      const disposition = query.get('disposition') ?? 'attachment'
      return send(response, 200, { url: `${url}/invoices/${transaction.id}.pdf?disposition=${disposition}` })
    }
    const transactionPath = /^\/transactions\/([^/]+)$/.exec(path)
    if (transactionPath && method === 'GET') {
      const transaction = transactions.get(decodeURIComponent(transactionPath[1] ?? ''))
      return transaction ? send(response, 200, transaction) : notFound(response)
    }
    if (transactionPath && method === 'PATCH') {
      const transaction = transactions.get(decodeURIComponent(transactionPath[1] ?? ''))
      if (!transaction) return notFound(response)
      if (body.status === 'canceled') {
        // Only a transaction nobody has paid can be canceled.
        if (transaction.status !== 'draft' && transaction.status !== 'ready') {
          return fail(response, 400, 'request_error', 'transaction_immutable', 'The transaction cannot be changed')
        }
        transaction.status = 'canceled'
        transaction.updated_at = iso(new Date())
      }
      return send(response, 200, transaction)
    }
    const subscriptionPath = /^\/subscriptions\/([^/]+)(\/preview|\/cancel)?$/.exec(path)
    if (subscriptionPath) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionPath[1] ?? ''))
      const action = subscriptionPath[2]
      if (!subscription) return notFound(response)
      if (method === 'GET' && !action) return send(response, 200, subscription)
      if (method === 'POST' && action === '/cancel') {
        const endsAt = subscription.current_billing_period?.ends_at ?? iso(new Date())
        subscription.scheduled_change = { action: 'cancel', effective_at: endsAt, resume_at: null }
        subscription.updated_at = iso(new Date())
        return send(response, 200, subscription)
      }
      if (method === 'PATCH' && 'scheduled_change' in body && !body.items) {
        subscription.scheduled_change = null
        subscription.updated_at = iso(new Date())
        return send(response, 200, subscription)
      }
      if (method === 'PATCH' && body.items) {
        let items: ReturnType<typeof itemsFrom>
        try {
          items = itemsFrom(body)
        } catch (error) {
          return fail(response, 400, 'request_error', 'bad_request', (error as Error).message)
        }
        const cost = proration(subscription, items)
        if (action === '/preview') {
          const currency = subscription.currency_code
          return send(response, 200, {
            ...subscription,
            items: subscriptionItems(items),
            update_summary: {
              credit: { amount: String(cost.credit), currency_code: currency },
              charge: { amount: String(cost.charge), currency_code: currency },
              result: {
                action: cost.due >= 0 ? 'charge' : 'credit',
                amount: String(Math.abs(cost.due)),
                currency_code: currency,
              },
            },
          })
        }
        if (cost.due > 0 && body.on_payment_failure !== 'apply_change' && declined.has(subscription.customer_id)) {
          return fail(response, 400, 'request_error', 'subscription_payment_declined', 'payment declined')
        }
        const now = new Date()
        subscription.items = subscriptionItems(items)
        subscription.billing_cycle = { interval: cost.newCycle, frequency: 1 }
        if (cost.newPeriod) {
          subscription.current_billing_period = {
            starts_at: iso(now),
            ends_at: iso(addPeriod(now, cost.newCycle)),
          }
        }
        subscription.updated_at = iso(now)
        if (cost.due > 0) {
          newTransaction({
            origin: 'subscription_update',
            status: 'completed',
            currency_code: subscription.currency_code,
            items: items.map(({ price, quantity }) => ({ price_id: price.id, price, quantity, proration: null })),
            amount: cost.due,
            customer_id: subscription.customer_id,
            subscription_id: subscription.id,
            billing_period: {
              starts_at: iso(now),
              ends_at: subscription.current_billing_period?.ends_at ?? iso(now),
            },
            billed_at: iso(now),
          })
        }
        return send(response, 200, subscription)
      }
    }
    if (method === 'GET' && path === '/adjustments') {
      const ids = (query.get('transaction_id') ?? '').split(',').filter(Boolean)
      const actions = (query.get('action') ?? '').split(',').filter(Boolean)
      const statuses = (query.get('status') ?? '').split(',').filter(Boolean)
      const matching = adjustments.filter(
        (adjustment) =>
          (ids.length === 0 || ids.includes(adjustment.transaction_id)) &&
          (actions.length === 0 || actions.includes(adjustment.action)) &&
          (statuses.length === 0 || statuses.includes(adjustment.status)),
      )
      return send(response, 200, matching, {
        pagination: {
          per_page: 50,
          next: `${url}/adjustments?after=end`,
          has_more: false,
          estimated_total: matching.length,
        },
      })
    }
    const portalPath = /^\/customers\/([^/]+)\/portal-sessions$/.exec(path)
    if (portalPath && method === 'POST') {
      const customerId = decodeURIComponent(portalPath[1] ?? '')
      if (!customers.has(customerId)) return notFound(response)
      const token = randomBytes(12).toString('hex')
      return send(response, 201, {
        id: paddleId('cpls'),
        customer_id: customerId,
        urls: { general: { overview: `${url}/portal/${customerId}?token=${token}` }, subscriptions: [] },
        created_at: iso(new Date()),
      })
    }
    return fail(response, 404, 'request_error', 'not_found', `No route ${method} ${path}`)
  }

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const address = new URL(incoming.url ?? '/', 'http://fake-paddle')
      const text = Buffer.concat(chunks).toString('utf8')
      const recorded: RecordedPaddleRequest = {
        method: incoming.method ?? 'GET',
        path: address.pathname,
        query: address.searchParams,
        body: text ? (JSON.parse(text) as Json) : null,
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
    if (!found) throw new Error(`The fake Paddle has no ${what} ${id}`)
    return found
  }

  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    completeCheckout(transactionId) {
      const transaction = required(transactions, transactionId, 'transaction')
      const customerId = transaction.customer_id ?? paddleId('ctm')
      customers.add(customerId)
      const start = new Date()
      const interval = transaction.items[0]?.price.billing_cycle?.interval ?? 'month'
      const end = addPeriod(start, interval)
      const period = { starts_at: iso(start), ends_at: iso(end) }
      const subscription: FakePaddleSubscription = {
        id: paddleId('sub'),
        status: 'active',
        customer_id: customerId,
        address_id: paddleId('add'),
        business_id: null,
        currency_code: transaction.currency_code,
        created_at: iso(start),
        updated_at: iso(start),
        started_at: iso(start),
        first_billed_at: iso(start),
        next_billed_at: iso(end),
        paused_at: null,
        canceled_at: null,
        discount: null,
        collection_mode: 'automatic',
        billing_details: null,
        current_billing_period: period,
        billing_cycle: { interval, frequency: 1 },
        scheduled_change: null,
        management_urls: null,
        items: subscriptionItems(transaction.items),
        // Paddle copies the transaction's custom data onto the subscription it starts.
        custom_data: transaction.custom_data,
        import_meta: null,
      }
      subscriptions.set(subscription.id, subscription)
      Object.assign(transaction, {
        status: 'completed',
        customer_id: customerId,
        address_id: subscription.address_id,
        subscription_id: subscription.id,
        billing_period: period,
        invoice_id: paddleId('inv'),
        billed_at: iso(start),
        updated_at: iso(start),
      })
      return { transaction: structuredClone(transaction), subscription: structuredClone(subscription) }
    },
    cancelTransaction(transactionId) {
      const transaction = required(transactions, transactionId, 'transaction')
      transaction.status = 'canceled'
      return structuredClone(transaction)
    },
    transaction: (id) => transactions.get(id),
    subscription: (id) => subscriptions.get(id),
    renew(subscriptionId) {
      const subscription = required(subscriptions, subscriptionId, 'subscription')
      const start = new Date(subscription.current_billing_period?.ends_at ?? Date.now())
      const end = addPeriod(start, subscription.billing_cycle.interval)
      subscription.current_billing_period = { starts_at: iso(start), ends_at: iso(end) }
      const items = subscription.items.filter((item) => item.status === 'active')
      const transaction = newTransaction({
        origin: 'subscription_recurring',
        status: 'completed',
        currency_code: subscription.currency_code,
        items: items.map(({ price, quantity }) => ({ price_id: price.id, price, quantity, proration: null })),
        amount: amountOf(items),
        customer_id: subscription.customer_id,
        subscription_id: subscription.id,
        billing_period: { starts_at: iso(start), ends_at: iso(end) },
        billed_at: iso(start),
      })
      return { subscription: structuredClone(subscription), transaction: structuredClone(transaction) }
    },
    refund(transactionId, amount, status = 'approved') {
      const transaction = required(transactions, transactionId, 'transaction')
      const now = iso(new Date())
      const total = String(amount)
      const adjustment: FakePaddleAdjustment = {
        id: paddleId('adj'),
        action: 'refund',
        type: 'partial',
        transaction_id: transaction.id,
        subscription_id: transaction.subscription_id,
        customer_id: transaction.customer_id ?? '',
        reason: 'requested by the customer',
        credit_applied_to_balance: false,
        currency_code: transaction.currency_code,
        status,
        items: [],
        totals: {
          subtotal: total,
          tax: '0',
          total,
          fee: '0',
          earnings: total,
          currency_code: transaction.currency_code,
        },
        payout_totals: null,
        tax_rates_used: [],
        created_at: now,
        updated_at: now,
      }
      adjustments.push(adjustment)
      return structuredClone(adjustment)
    },
    setSubscription(id, patch) {
      const subscription = required(subscriptions, id, 'subscription')
      Object.assign(subscription, patch, { updated_at: iso(new Date()) })
      return structuredClone(subscription)
    },
    advanceClock(ms) {
      clockOffsetMs += ms
    },
    paymentMethodChange(subscriptionId) {
      const subscription = required(subscriptions, subscriptionId, 'subscription')
      const items = subscription.items.filter((item) => item.status === 'active')
      const transaction = newTransaction({
        origin: 'subscription_payment_method_change',
        status: 'completed',
        currency_code: subscription.currency_code,
        items: items.map(({ price, quantity }) => ({ price_id: price.id, price, quantity, proration: null })),
        amount: 0,
        customer_id: subscription.customer_id,
        subscription_id: subscription.id,
      })
      return structuredClone(transaction)
    },
    foreignSale() {
      const price = priceFrom({ name: 'Another app', unit_price: { amount: '500', currency_code: 'USD' } }, 1)
      const transaction = newTransaction({
        origin: 'api',
        status: 'completed',
        currency_code: 'USD',
        items: [{ price_id: price.id, price, quantity: 1, proration: null }],
        amount: 500,
        customer_id: paddleId('ctm'),
      })
      return structuredClone(transaction)
    },
    declineCharges(customerId, isDeclined = true) {
      if (isDeclined) declined.add(customerId)
      else declined.delete(customerId)
    },
    transactionsOf: (subscriptionId) =>
      [...transactions.values()].filter((transaction) => transaction.subscription_id === subscriptionId),
    event: (type, data) => ({
      event_id: paddleId('evt'),
      event_type: type,
      occurred_at: iso(new Date()),
      notification_id: paddleId('ntf'),
      data: structuredClone(data),
    }),
  }
}

/**
 * A delivery as Paddle sends it: the event's JSON with `Paddle-Signature: ts=<unix seconds>;h1=<HMAC-SHA256 of
 * "ts:body">`, one h1 per secret (two while a secret is being rotated).
 */
export function signedPaddleDelivery(
  event: FakePaddleEvent,
  secrets: string | string[],
  options: { timestamp?: Date } = {},
): { body: string; headers: Headers } {
  const body = JSON.stringify(event)
  const timestamp = Math.floor((options.timestamp ?? new Date()).getTime() / 1000)
  const signatures = [secrets]
    .flat()
    .map((secret) => `h1=${createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex')}`)
  return {
    body,
    headers: new Headers({
      'content-type': 'application/json',
      'paddle-signature': [`ts=${timestamp}`, ...signatures].join(';'),
    }),
  }
}
