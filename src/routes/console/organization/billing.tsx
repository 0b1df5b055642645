import { createFileRoute } from '@tanstack/react-router'
import { PageHeader } from '#/components/page-header'
import { BillingPanel } from '#/features/billing/components/billing-panel'
import { requireConsoleAccess } from '#/features/console/console-access'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/billing')({
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { billing: ['read'] }), 'billing')
  },
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.billing.overview.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.billing.orders.queryOptions()),
    ]),
  head: () => ({ meta: [{ title: m.console_org_billing() }] }),
  staticData: { crumb: m.console_org_billing },
  component: function OrganizationBillingPage() {
    return (
      <div className="max-w-4xl">
        <PageHeader title={m.console_org_billing()} description={m.billing_console_description()} />
        <BillingPanel showPortal />
      </div>
    )
  },
})
