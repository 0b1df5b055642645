import type { BillingInterval, Currency } from '#/lib/plans'
import type { ChangePreview } from './provider'

/** The end of a period of `interval` that starts at `start` (calendar months and years, as providers bill). */
export function addInterval(start: Date, interval: BillingInterval): Date {
  const end = new Date(start)
  if (interval === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else end.setUTCMonth(end.getUTCMonth() + 1)
  return end
}

/** A running subscription's price and period, and the credit its customer already holds. */
export interface ProratedSubscription {
  amount: number
  interval: BillingInterval
  currency: Currency
  periodStart: Date
  periodEnd: Date
  creditBalance: number
}

/**
 * Prorates a change the way Stripe does by default (`proration_behavior: always_invoice`), to the second: the unused
 * part of the current price is credited; the new price is charged for the same remaining part, or, when the interval
 * changes, for a whole new period starting at `at`. The customer's credit is spent first.
 */
export function prorate(
  current: ProratedSubscription,
  next: { amount: number; interval: BillingInterval },
  at: Date,
): ChangePreview {
  const length = current.periodEnd.getTime() - current.periodStart.getTime()
  const unused = Math.min(1, Math.max(0, current.periodEnd.getTime() - at.getTime()) / Math.max(1, length))
  const credit = Math.round(current.amount * unused)
  const newPeriod = next.interval !== current.interval
  const charge = newPeriod ? next.amount : Math.round(next.amount * unused)
  const owed = charge - credit - current.creditBalance
  return {
    currency: current.currency,
    credit,
    charge,
    amountDue: Math.max(0, owed),
    creditLeft: Math.max(0, -owed),
    newAmount: next.amount,
    periodStart: newPeriod ? at : current.periodStart,
    periodEnd: newPeriod ? addInterval(at, next.interval) : current.periodEnd,
    prorationDate: at,
  }
}
