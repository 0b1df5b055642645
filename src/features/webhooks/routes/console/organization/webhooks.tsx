import { createFileRoute } from '@tanstack/react-router'
import { requireConsoleAccess } from '#/features/console/console-access'
import { DeliveryLog } from '#/features/webhooks/components/delivery-log'
import { WebhooksScreen } from '#/features/webhooks/components/webhooks-screen'
import { deliveriesInputOf, webhooksSearch } from '#/features/webhooks/search'
import { allows } from '#/lib/access-control'
import { m } from '#/paraglide/messages'

export const Route = createFileRoute('/console/organization/webhooks')({
  validateSearch: webhooksSearch,
  beforeLoad: ({ context }) => {
    requireConsoleAccess(allows(context.consoleSession.permissions, { webhook: ['read'] }), 'webhooks')
  },
  loaderDeps: ({ search }) => search,
  // Prefetched for the server render; a failure shows in the page rather than as an error screen.
  loader: ({ context, deps }) => {
    const { endpoint } = deps
    return endpoint
      ? context.queryClient.prefetchQuery(
          context.trpc.webhooks.deliveries.queryOptions(deliveriesInputOf({ ...deps, endpoint })),
        )
      : context.queryClient.prefetchQuery(context.trpc.webhooks.list.queryOptions())
  },
  head: () => ({ meta: [{ title: m.console_org_webhooks() }] }),
  staticData: { crumb: m.console_org_webhooks },
  component: WebhooksPage,
})

function WebhooksPage() {
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  const { endpoint } = search
  if (!endpoint) return <WebhooksScreen />
  return (
    <DeliveryLog
      search={{ ...search, endpoint }}
      onSearchChange={(change) => navigate({ search: (latest) => ({ ...latest, ...change }) })}
    />
  )
}
