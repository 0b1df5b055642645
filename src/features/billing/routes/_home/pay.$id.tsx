import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { LocalPayScreen } from '#/features/billing/components/local-pay-screen'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** The built-in payment provider's checkout page (only while no real provider is configured). */
export const Route = createFileRoute('/_home/pay/$id')({
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
  },
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.ensureQueryData(context.trpc.billing.local.get.queryOptions({ id: params.id }))
    } catch (error) {
      if (error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND') throw notFound()
      throw error
    }
  },
  head: () => ({ meta: [{ title: m.local_pay_title() }, { name: 'robots', content: 'noindex' }] }),
  component: function LocalPayPage() {
    const { id } = Route.useParams()
    return <LocalPayScreen checkoutId={id} />
  },
})
