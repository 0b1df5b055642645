import { useMutation, useSuspenseQuery } from '@tanstack/react-query'
import { FlaskConicalIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { money, planSummary } from '../billing-format'
import '../billing-messages'

type Outcome = 'pay' | 'pay_later' | 'fail' | 'cancel'

/**
 * The built-in provider's checkout page, standing where Stripe's hosted page would: it shows the order and lets the
 * buyer decide how the payment ends. It says plainly that no money moves.
 */
export function LocalPayScreen({ checkoutId }: { checkoutId: string }) {
  const trpc = useTRPC()
  const { data: checkout } = useSuspenseQuery(trpc.billing.local.get.queryOptions({ id: checkoutId }))
  const settle = useMutation(trpc.billing.local.settle.mutationOptions())
  const [chosen, setChosen] = useState<Outcome | null>(null)
  const open = checkout.status === 'open' && !checkout.superseded

  const choose = async (outcome: Outcome) => {
    setChosen(outcome)
    try {
      const { redirectUrl } = await settle.mutateAsync({ id: checkoutId, outcome })
      window.location.assign(redirectUrl)
    } catch (error) {
      setChosen(null)
      toast.error(describeError(error))
    }
  }

  const actions: { outcome: Outcome; label: string; variant: 'default' | 'outline' | 'destructive' | 'ghost' }[] = [
    {
      outcome: 'pay',
      label: m.local_pay_pay({ amount: money(checkout.amount, checkout.currency) }),
      variant: 'default',
    },
    { outcome: 'pay_later', label: m.local_pay_later(), variant: 'outline' },
    { outcome: 'fail', label: m.local_pay_fail(), variant: 'destructive' },
    { outcome: 'cancel', label: m.local_pay_cancel(), variant: 'ghost' },
  ]

  return (
    <main id="main" className="mx-auto w-full max-w-md px-4 py-12 sm:px-6">
      <p
        role="note"
        className="flex items-start gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm text-amber-900 dark:text-amber-200"
      >
        <FlaskConicalIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        {m.local_pay_notice()}
      </p>
      <h1 className="mt-6 text-2xl font-semibold tracking-tight">{m.local_pay_title()}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl border p-4 text-sm">
        <dt className="text-muted-foreground">{m.local_pay_organization()}</dt>
        <dd className="min-w-0 break-words">{checkout.organizationName}</dd>
        <dt className="text-muted-foreground">{m.local_pay_plan()}</dt>
        <dd>{planSummary(checkout.planId, checkout.interval, checkout.seats)}</dd>
        <dt className="text-muted-foreground">{m.local_pay_email()}</dt>
        <dd className="min-w-0 break-all">{checkout.customerEmail}</dd>
        <dt className="text-muted-foreground">{m.local_pay_amount()}</dt>
        <dd className="font-semibold" data-testid="local-pay-amount">
          {money(checkout.amount, checkout.currency)}
        </dd>
      </dl>
      {open ? (
        <div className="mt-6 grid gap-2">
          {actions.map((action) => (
            <Button
              key={action.outcome}
              variant={action.variant}
              disabled={chosen !== null}
              onClick={() => void choose(action.outcome)}
            >
              {chosen === action.outcome ? m.local_pay_working() : action.label}
            </Button>
          ))}
        </div>
      ) : checkout.superseded ? (
        <div
          className="mt-6 rounded-lg border border-dashed p-4 text-sm"
          role="alert"
          data-testid="local-pay-superseded"
        >
          <p>{m.local_pay_superseded()}</p>
          <Button asChild size="sm" className="mt-3">
            <a href={localizeHref('/console/organization/billing')}>{m.local_pay_open_billing()}</a>
          </Button>
        </div>
      ) : (
        <p className="mt-6 rounded-lg border border-dashed p-4 text-sm" data-testid="local-pay-outcome">
          {checkout.status === 'complete' ? (
            <>
              {m.local_pay_paid()}{' '}
              <a
                className="font-medium underline underline-offset-4"
                href={localizeHref(`/receipts/${encodeURIComponent(checkout.orderId)}`)}
              >
                {m.receipt_open()}
              </a>
            </>
          ) : checkout.status === 'processing' ? (
            m.local_pay_processing()
          ) : checkout.status === 'expired' ? (
            m.local_pay_expired()
          ) : (
            m.local_pay_closed()
          )}
        </p>
      )}
    </main>
  )
}
