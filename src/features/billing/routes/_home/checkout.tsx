import { createFileRoute, redirect } from '@tanstack/react-router'
import { CheckoutScreen } from '#/features/billing/components/checkout-screen'
import { checkoutSearch } from '#/features/billing/search'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { allows } from '#/lib/access-control'
import { planName } from '#/lib/plan-text'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

export const Route = createFileRoute('/_home/checkout')({
  validateSearch: checkoutSearch,
  // A visitor from the pricing section signs up (or in) first, then comes back to the plan they chose.
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-up', search: { redirect: localizeHref(location.href) } })
    return { consoleSession: session }
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.billing.overview.queryOptions()),
  head: ({ match }) => ({ meta: [{ title: m.checkout_title({ plan: planName(match.search.plan) }) }] }),
  component: function CheckoutPage() {
    const search = Route.useSearch()
    const { consoleSession } = Route.useRouteContext()
    const overview = Route.useLoaderData()
    const usage = overview.details?.usage.members
    return (
      <CheckoutScreen
        search={search}
        organizationName={consoleSession.organization.name}
        canManage={allows(consoleSession.permissions, { billing: ['manage'] })}
        seatsTaken={usage ? usage.used + usage.invited : 1}
        currencies={overview.checkoutCurrencies}
      />
    )
  },
})
