import { createFileRoute, redirect } from '@tanstack/react-router'
import { OrderHistory } from '#/features/billing/components/order-history'
import { myOrdersSearch, orderListInputOf } from '#/features/billing/search'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/_home/my-orders')({
  validateSearch: myOrdersSearch,
  loaderDeps: ({ search }) => ({ page: search.page, size: search.size }),
  // Signed-out visitors sign in first and come back; a payment's return address always works.
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
    return { consoleSession: session }
  },
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchQuery(context.trpc.billing.overview.queryOptions()),
      allows(context.consoleSession.permissions, { billing: ['read'] })
        ? context.queryClient.prefetchQuery(context.trpc.billing.orders.queryOptions(orderListInputOf(deps)))
        : undefined,
    ]),
  head: () => ({ meta: [{ title: m.my_orders_history_title() }] }),
  component: function MyOrdersPage() {
    const search = Route.useSearch()
    const navigate = Route.useNavigate()
    const { consoleSession } = Route.useRouteContext()
    return (
      <OrderHistory
        organizationName={consoleSession.organization.name}
        canRead={allows(consoleSession.permissions, { billing: ['read'] })}
        canManage={allows(consoleSession.permissions, { billing: ['manage'] })}
        highlightedOrderId={search.order}
        ordersPage={search}
        onOrdersPageChange={(change, options) =>
          navigate({ search: (latest) => ({ ...latest, ...change }), replace: options?.replace })
        }
      />
    )
  },
})
