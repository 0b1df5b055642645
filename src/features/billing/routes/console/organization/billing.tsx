import { createFileRoute } from '@tanstack/react-router'
import { PageHeader } from '#/components/page-header'
import { BillingPanel } from '#/features/billing/components/billing-panel'
import { billingSearch, orderListInputOf } from '#/features/billing/search'
import { requireConsoleAccess } from '#/features/console/console-access'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/billing')({
  validateSearch: billingSearch,
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { billing: ['read'] }), 'billing')
  },
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.billing.overview.queryOptions()),
      context.queryClient.prefetchQuery(context.trpc.billing.orders.queryOptions(orderListInputOf(deps))),
    ]),
  head: () => ({ meta: [{ title: m.console_org_billing() }] }),
  staticData: { crumb: m.console_org_billing },
  component: function OrganizationBillingPage() {
    const search = Route.useSearch()
    const navigate = Route.useNavigate()
    return (
      <div className="max-w-4xl">
        <PageHeader title={m.console_org_billing()} description={m.billing_console_description()} />
        <BillingPanel
          showPortal
          ordersPage={search}
          onOrdersPageChange={(change, options) =>
            navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
          }
        />
      </div>
    )
  },
})
