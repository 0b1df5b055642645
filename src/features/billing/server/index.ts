// What other features may use of billing on the server (the import rules in .dependency-cruiser.cjs allow nothing
// else): what a payment provider's app answers when its checkout is not the buyer's, and, for its tests, the ledger's
// entry points (a webhook delivery, the daily reconciliation, a replay, the hourly close of overdue checkouts).

export { EventArrivedEarlyError, receiveEvent, reconcileSubscriptions, replayEvent } from './ledger'
export { checkoutNotFound } from './local-checkout-router'
export { closeOverdueProviderCheckouts } from './operator-tasks'
export { endSupersededCheckouts } from './superseded-checkouts'
export { handleBillingWebhook } from './webhook'
