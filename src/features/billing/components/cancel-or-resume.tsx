import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

/**
 * Cancels at the end of the paid period after saying what stops and when (a cancellation is one click away from a
 * lost customer, so it is asked, not assumed); resumes at once, as resuming takes nothing away.
 */
export function CancelOrResume({
  cancelAtPeriodEnd,
  plan,
  periodEnd,
  onDone,
}: {
  cancelAtPeriodEnd: boolean
  /** The plan as the customer reads it, and the last day it is paid for. */
  plan: string
  periodEnd: string
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const change = useMutation(trpc.billing.setCancelAtPeriodEnd.mutationOptions())
  const run = async () => {
    try {
      await change.mutateAsync({ cancelAtPeriodEnd: !cancelAtPeriodEnd })
      toast.success(cancelAtPeriodEnd ? m.billing_resumed() : m.billing_canceled_at_period_end())
      await onDone()
    } catch (error) {
      toast.error(describeError(error))
    }
  }
  if (cancelAtPeriodEnd) {
    return (
      <Button disabled={change.isPending} onClick={() => void run()}>
        {m.billing_resume()}
      </Button>
    )
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" disabled={change.isPending}>
          {m.billing_cancel_at_period_end()}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.billing_cancel_confirm_title()}</AlertDialogTitle>
        <AlertDialogDescription>
          {m.billing_cancel_confirm_description({ plan, date: periodEnd })}
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.billing_cancel_keep()}</AlertDialogCancel>
          <AlertDialogAction onClick={() => void run()}>{m.billing_cancel_at_period_end()}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
