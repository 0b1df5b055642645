import { billingIntervals, currencies, paidPlanIds, seatLimits } from '#/lib/plans'
import { oneOf, searchParams, text, wholeNumber, withFallback } from '#/lib/url-search'

/** The checkout page's address: a bad or missing parameter falls back rather than failing the page. */
export const checkoutSearch = searchParams({
  plan: withFallback(oneOf(paidPlanIds), 'pro'),
  interval: withFallback(oneOf(billingIntervals), 'monthly'),
  currency: oneOf(currencies),
  seats: wholeNumber(seatLimits.min, seatLimits.max),
})
export type CheckoutSearch = ReturnType<typeof checkoutSearch>

export const myOrdersSearch = searchParams({
  /** The order checkout returned for, shown highlighted (and "processing" until its payment event arrives). */
  order: text(100, { trim: false }),
})
