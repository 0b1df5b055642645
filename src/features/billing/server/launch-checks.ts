import { eq, max } from 'drizzle-orm'
import { m } from '#/paraglide/messages'
import type { Database } from '#/server/db/client'
import type { LaunchCheck, LaunchCheckContext } from '#/server/launch-checks'
import { activePaymentProviderId, localProviderId } from './payments/payment-provider'
import { billingEvents } from './schema'

/**
 * Billing's item of "Before you launch": a payment app's provider configured, and a webhook from it received. Only a
 * delivery whose signature checked out is stored (webhook.ts), so one stored event shows the secret and the URL agree.
 */
export async function paymentLaunchChecks(db: Database, { locale }: LaunchCheckContext): Promise<LaunchCheck[]> {
  const provider = activePaymentProviderId()
  const l = { locale }
  const check = { id: 'payments', title: m.billing_launch_title({}, l), docs: '/docs/billing#checkout' }
  if (provider === localProviderId) {
    return [{ ...check, done: false, detail: m.billing_launch_local({}, l) }]
  }
  const [latest] = await db
    .select({ receivedAt: max(billingEvents.receivedAt) })
    .from(billingEvents)
    .where(eq(billingEvents.provider, provider))
  if (!latest?.receivedAt) {
    return [{ ...check, done: false, detail: m.billing_launch_no_webhook({ provider }, l) }]
  }
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    latest.receivedAt,
  )
  return [{ ...check, done: true, detail: m.billing_launch_done({ provider, time }, l) }]
}
