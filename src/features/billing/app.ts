import { defineApp } from '#/lib/app-manifest'
import { m } from '#/paraglide/messages'

/**
 * Billing: the plans on the landing page, checkout, the organization's Billing page, its orders and receipts, and the
 * Dashboard's revenue. Without it nothing is sold and every organization has the largest plan.
 */
export const app = defineApp({
  name: 'billing',
  productLinks: [{ href: '/', hash: 'pricing', label: m.nav_pricing }],
  planPages: {
    manage: '/console/organization/billing',
    upgrade: '/my-orders',
    readers: { billing: ['read'] },
    changers: { billing: ['manage'] },
  },
  prefetchSiteDashboard: ({ queryClient, trpc }, input) =>
    queryClient.prefetchQuery(trpc.billing.revenue.queryOptions(input)),
})
