import { createFileRoute, notFound, redirect } from '@tanstack/react-router'
import { TRPCClientError } from '@trpc/client'
import { fetchConsoleSession } from '#/features/console/console-session-fn'
import { PaddleCheckoutScreen } from '#/features/paddle/components/paddle-checkout-screen'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** Paddle's checkout link: the app's page where Paddle.js opens the transaction named by `_ptxn`. */
export const Route = createFileRoute('/_home/paddle-checkout')({
  validateSearch: (search: Record<string, unknown>): { _ptxn: string } => ({
    _ptxn: typeof search._ptxn === 'string' ? search._ptxn : '',
  }),
  beforeLoad: async ({ location }) => {
    const session = await fetchConsoleSession()
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: localizeHref(location.href) } })
  },
  loaderDeps: ({ search }) => ({ transactionId: search._ptxn }),
  loader: async ({ context, deps }) => {
    try {
      await context.queryClient.ensureQueryData(context.trpc.paddle.get.queryOptions(deps))
    } catch (error) {
      const code = error instanceof TRPCClientError ? error.data?.code : undefined
      if (code === 'NOT_FOUND' || code === 'BAD_REQUEST') throw notFound()
      throw error
    }
  },
  head: () => ({ meta: [{ title: m.local_pay_title() }, { name: 'robots', content: 'noindex' }] }),
  component: function PaddleCheckoutPage() {
    const { _ptxn } = Route.useSearch()
    return <PaddleCheckoutScreen transactionId={_ptxn} />
  },
})
