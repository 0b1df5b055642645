import { currentIntlLocale } from '#/lib/i18n'
import { planName } from '#/lib/plan-text'
import { formatPrice, type PlanId } from '#/lib/plans'
import { m } from '#/paraglide/messages'
import type { OrderStatus } from './order-status'

const statusLabels: Record<OrderStatus, () => string> = {
  pending: m.billing_status_pending,
  paid: m.billing_status_paid,
  failed: m.billing_status_failed,
  canceled: m.billing_status_canceled,
  expired: m.billing_status_expired,
  partially_refunded: m.billing_status_partially_refunded,
  refunded: m.billing_status_refunded,
}

/**
 * "Processing" is only for a payment on its way (the buyer finished the checkout); a pending order nobody finished
 * paying is "Not finished".
 */
export function orderStatusLabel(status: string, processing = false): string {
  if (status === 'pending' && !processing) return m.billing_status_unfinished()
  return (statusLabels[status as OrderStatus] ?? m.billing_status_pending)()
}

const subscriptionLabels: Record<string, () => string> = {
  incomplete: m.billing_subscription_incomplete,
  trialing: m.billing_subscription_trialing,
  active: m.billing_subscription_active,
  past_due: m.billing_subscription_past_due,
  canceled: m.billing_subscription_canceled,
}

export function subscriptionStatusLabel(status: string): string {
  return (subscriptionLabels[status] ?? m.billing_subscription_active)()
}

export function intervalLabel(interval: string): string {
  return interval === 'yearly' ? m.pricing_yearly() : m.pricing_monthly()
}

export function money(minorUnits: number, currency: string): string {
  return formatPrice(minorUnits, currentIntlLocale(), currency)
}

export function formatDay(date: Date | string | null | undefined): string {
  if (!date) return ''
  return new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' }).format(new Date(date))
}

/** A date with its time of day, for what ends within hours (a checkout's expiry). */
export function formatMoment(date: Date | string | null | undefined): string {
  if (!date) return ''
  return new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(date),
  )
}

/** "Team · 5 seats · yearly", in the page's language. */
export function planSummary(planId: string, interval: string, seats: number): string {
  const name = planName(planId as PlanId)
  const parts = [name]
  if (planId === 'team') parts.push(m.billing_seats_count({ count: String(seats) }))
  parts.push(intervalLabel(interval))
  return parts.join(' · ')
}
