// What other features may use of billing on the server (the import rules in .dependency-cruiser.cjs allow nothing
// else): the contract a payment provider's app implements and the helpers for reading its events, what it answers
// when its checkout is not the buyer's, and, for its tests, the ledger's entry points (a webhook delivery, the daily
// reconciliation, a replay, the hourly close of overdue checkouts).

export { EventArrivedEarlyError, receiveEvent, reconcileSubscriptions, replayEvent } from './ledger'
export { checkoutNotFound } from './local-checkout-router'
export { closeOverdueProviderCheckouts } from './operator-tasks'
export { dateOf, isCurrency, isPaidPlanId, isRecord, text } from './payments/event-reading'
export { type LocalCheckout, LocalPaymentProvider, type SignedDelivery } from './payments/local-provider'
export { activePaymentProviderId, localPaymentProvider, paymentProviderFor } from './payments/payment-provider'
export { addInterval, prorate } from './payments/proration'
export {
  type ChangePreview,
  ChargeDeclinedError,
  type CheckoutRequest,
  type LedgerChange,
  type PaymentProvider,
  type PlanChange,
  type ProviderEvent,
  type SubscriptionSnapshot,
  type SubscriptionStatus,
  type SubscriptionUpdate,
  WebhookSignatureError,
} from './payments/provider'
export { providerUnavailable } from './payments/provider-errors'
export { grantingStatuses } from './subscriptions'
export { endSupersededCheckouts } from './superseded-checkouts'
export { handleBillingWebhook } from './webhook'
