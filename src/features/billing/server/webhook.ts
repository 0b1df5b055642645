import type { Database } from '#/server/db/client'
import { log } from '#/server/log'
import { receiveEvent } from './ledger'
import { activePaymentProviderId, paymentProviderFor } from './payments/payment-provider'
import { WebhookSignatureError } from './payments/provider'
import { endSupersededCheckouts } from './superseded-checkouts'

const maxBodyBytes = 1024 * 1024

const json = (status: number, body: Record<string, unknown>) => Response.json(body, { status })

/**
 * POST /api/billing/webhook/{provider}: verify, store once, apply. 400 for a delivery that is not genuine (nothing is
 * written); 200 for an applied or duplicate event; 500 when applying failed, so the provider delivers it again.
 */
export async function handleBillingWebhook(
  db: Database,
  providerId: string,
  body: string,
  headers: Headers,
): Promise<Response> {
  if (providerId !== activePaymentProviderId()) return json(404, { error: 'No such payment provider' })
  if (Buffer.byteLength(body) > maxBodyBytes) return json(413, { error: 'Event too large' })
  const provider = await paymentProviderFor(db, providerId)
  let event: Awaited<ReturnType<typeof provider.verifyEvent>>
  try {
    event = await provider.verifyEvent(body, headers)
  } catch (error) {
    if (error instanceof WebhookSignatureError) return json(400, { error: 'Invalid signature' })
    throw error
  }
  try {
    const { outcome } = await receiveEvent(db, provider, event)
    // A subscription just started or changed: the organization's other unfinished checkouts are over.
    if (outcome === 'applied') await endSupersededCheckouts(db)
    return json(200, { received: true, duplicate: outcome === 'duplicate' })
  } catch (error) {
    log().error(
      { err: error, eventId: event.id, eventType: event.type },
      'a payment event failed; the provider will send it again',
    )
    return json(500, { error: 'Event not applied; retry later' })
  }
}
