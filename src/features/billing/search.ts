import { type ListPageSize, pageOf } from '#/lib/list-paging'
import { billingIntervals, currencies, paidPlanIds, seatLimits } from '#/lib/plans'
import { listPage, listPageSize, oneOf, searchParams, text, wholeNumber, withFallback } from '#/lib/url-search'

/** The checkout page's address: a bad or missing parameter falls back rather than failing the page. */
export const checkoutSearch = searchParams({
  plan: withFallback(oneOf(paidPlanIds), 'pro'),
  interval: withFallback(oneOf(billingIntervals), 'monthly'),
  currency: oneOf(currencies),
  seats: wholeNumber(seatLimits.min, seatLimits.max),
})
export type CheckoutSearch = ReturnType<typeof checkoutSearch>

/** Which page of the orders list shows, on the console's Billing page and on my-orders. */
const ordersPageFields = { page: listPage, size: listPageSize }
export interface OrdersPageSearch {
  page?: number
  size?: ListPageSize
}

/** The orders procedure's input for a page's address (the route prefetches it, the panel reads it). */
export const orderListInputOf = (search: OrdersPageSearch) => pageOf(search, 10)

export const billingSearch = searchParams(ordersPageFields)

export const myOrdersSearch = searchParams({
  /** The order checkout returned for, shown highlighted (and "processing" until its payment event arrives). */
  order: text(100, { trim: false }),
  ...ordersPageFields,
})
