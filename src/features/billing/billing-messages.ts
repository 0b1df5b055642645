import { addFeatureMessages } from '#/lib/errors'
import { m } from '#/paraglide/messages'

// Billing's refusals, registered where billing is shown (its pages) and served (its router), so they leave with the
// app. The one the console's own pages may show (a subscription that still renews) is registered by its console.ts.
addFeatureMessages({
  PAYMENT_PROVIDER_UNAVAILABLE: () => m.error_code_PAYMENT_PROVIDER_UNAVAILABLE(),
  ALREADY_SUBSCRIBED: () => m.error_code_ALREADY_SUBSCRIBED(),
  NO_SUBSCRIPTION: () => m.error_code_NO_SUBSCRIPTION(),
  PLAN_HAS_NO_SEATS: () => m.error_code_PLAN_HAS_NO_SEATS(),
  CHECKOUT_NOT_FOUND: () => m.error_code_CHECKOUT_NOT_FOUND(),
  RECEIPT_NOT_FOUND: () => m.error_code_RECEIPT_NOT_FOUND(),
  CHECKOUT_CLOSED: () => m.error_code_CHECKOUT_CLOSED(),
  CHECKOUT_EXPIRED: () => m.error_code_CHECKOUT_EXPIRED(),
  SEATS_BELOW_MEMBERS: (params) => m.error_code_SEATS_BELOW_MEMBERS({ count: params.count ?? '' }),
  PAYMENT_CURRENCY_UNSUPPORTED: (params) =>
    m.error_code_PAYMENT_CURRENCY_UNSUPPORTED({ currency: params.currency ?? '' }),
  PLAN_TOO_SMALL_FOR_MEMBERS: (params) => m.error_code_PLAN_TOO_SMALL_FOR_MEMBERS({ limit: params.limit ?? '' }),
  PLAN_UNCHANGED: () => m.error_code_PLAN_UNCHANGED(),
  PLAN_CHANGE_STALE: () => m.error_code_PLAN_CHANGE_STALE(),
  PLAN_CHANGE_DECLINED: () => m.error_code_PLAN_CHANGE_DECLINED(),
  PAYMENT_EVENT_NOT_FOUND: () => m.error_code_PAYMENT_EVENT_NOT_FOUND(),
  PAYMENT_EVENT_STILL_FAILING: () => m.error_code_PAYMENT_EVENT_STILL_FAILING(),
})
