import { defineServerApp } from '#/server/app-manifest'

/**
 * Billing: the plans an organization buys, through the built-in local provider or an installed payment app's (Stripe,
 * Polar, Lemon Squeezy, Paddle), kept in a provider-neutral ledger; the housekeeping of its checkouts, a daily
 * reconciliation with the provider, and the operator's replay.
 */
export const serverApp = defineServerApp({
  name: 'billing',
  personalPages: ['my-orders', 'receipts', 'pay', 'checkout'],
  organizationPlan: async () => {
    const { grantingSubscription } = await import('./subscriptions')
    return async (db, organizationId) => {
      const subscription = await grantingSubscription(db, organizationId)
      return subscription
        ? {
            planId: subscription.planId,
            seats: subscription.seats,
            interval: subscription.interval,
            status: subscription.status,
          }
        : undefined
    }
  },
  organizationDeletionRefusal: async () => {
    const { organizationWithRenewingSubscription, renewingSubscriptionRefusal } = await import('./subscriptions')
    return async (db, organizationIds) =>
      (await organizationWithRenewingSubscription(db, organizationIds)) ? renewingSubscriptionRefusal : undefined
  },
  jobs: async () => [(await import('./billing-jobs')).reconcileJob],
  // The ledger's two sides: what paid checkouts brought in and what live subscriptions are worth (bench/soak/verify.ts
  // checks that they are equal); a restored backup must show both as they were.
  backupTotals: {
    'billing: paid checkouts': `select count(*) from billing_orders where kind = 'checkout' and status = 'paid'`,
    'billing: paid amount (cents)': `select coalesce(sum(amount), 0) from billing_orders where kind = 'checkout' and status = 'paid'`,
    'billing: live subscriptions': `select count(*) from billing_subscriptions where status = 'active'`,
    'billing: live amount (cents)': `select coalesce(sum(amount), 0) from billing_subscriptions where status = 'active'`,
  },
  maintenanceTasks: [
    {
      name: 'closing overdue local checkouts',
      run: async (db) => (await import('./local-checkout-router')).closeOverdueLocalCheckouts(db),
    },
    {
      name: 'closing overdue checkouts at the payment provider',
      run: async (db) => (await import('./operator-tasks')).closeOverdueProviderCheckouts(db),
    },
  ],
  launchChecks: async (db, _env, context) => (await import('./launch-checks')).paymentLaunchChecks(db, context),
  operatorTasks: {
    replay: async () => {
      const { replayBillingEvent } = await import('./operator-tasks')
      return (db, eventId = '') => replayBillingEvent(db, eventId)
    },
    reconcile: async () => (await import('./operator-tasks')).reconcileBilling,
  },
})
