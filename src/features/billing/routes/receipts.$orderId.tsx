import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { ReceiptScreen } from '#/features/billing/components/receipt-screen'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/**
 * A paid order's receipt, one address for every provider: the provider's own receipt or invoice where it has one
 * (asked for now, as its links expire), or Hatch's printable receipt. Outside the site's frame, as a document.
 */
export const Route = createFileRoute('/receipts/$orderId')({
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
  },
  loader: async ({ context, params }) => {
    const opened = await context.queryClient
      .ensureQueryData(context.trpc.billing.receipt.open.queryOptions({ orderId: params.orderId }))
      .catch((error: unknown) => {
        if (error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND') throw notFound()
        throw error
      })
    if (opened.redirectUrl) throw redirect({ href: opened.redirectUrl })
  },
  head: () => ({ meta: [{ title: m.receipt_title() }, { name: 'robots', content: 'noindex' }] }),
  component: function ReceiptPage() {
    const { orderId } = Route.useParams()
    return <ReceiptScreen orderId={orderId} />
  },
})
