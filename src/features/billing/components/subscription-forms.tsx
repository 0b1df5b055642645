import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { sendWith, showServerFieldErrors, useAppForm } from '#/lib/form'
import { planName } from '#/lib/plan-text'
import { type BillingInterval, billingIntervals, type PaidPlanId, paidPlanIds } from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { intervalLabel } from '../billing-format'
import { changePlanInput, seatsFieldSchema } from '../schemas'

/** Pro ⇄ Team and monthly ⇄ yearly on the running subscription (the provider prorates the difference). */
export function PlanChanger({
  planId,
  interval,
  onDone,
}: {
  planId: string
  interval: string
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const change = useMutation(trpc.billing.changePlan.mutationOptions())
  const current = `${planId}:${interval}`
  const form = useAppForm({
    defaultValues: { choice: current },
    onSubmit: async ({ value }) => {
      const [nextPlan, nextInterval] = value.choice.split(':')
      const input = changePlanInput.parse({ planId: nextPlan, interval: nextInterval })
      try {
        await change.mutateAsync(input)
        toast.success(m.billing_plan_changed({ plan: planName(input.planId) }))
        await onDone()
      } catch (error) {
        toast.error(describeError(error))
      }
    },
  })
  return (
    <form
      method="post"
      noValidate
      className="grid gap-3"
      onSubmit={sendWith(form)}
      aria-label={m.billing_change_plan()}
    >
      <form.AppField name="choice">
        {(field) => (
          <field.SelectField label={m.billing_change_plan()}>
            {paidPlanIds.flatMap((plan: PaidPlanId) =>
              billingIntervals.map((option: BillingInterval) => (
                <option key={`${plan}:${option}`} value={`${plan}:${option}`}>
                  {`${planName(plan)} · ${intervalLabel(option)}`}
                </option>
              )),
            )}
          </field.SelectField>
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => [state.isSubmitting, state.values.choice === current] as const}>
        {([submitting, unchanged]) => (
          <Button type="submit" variant="outline" className="justify-self-start" disabled={submitting || unchanged}>
            {m.billing_change_plan_submit()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}

/** Team's seats: one member (or pending invitation) per seat; never fewer than the places already taken. */
export function SeatsForm({ seats, onDone }: { seats: number; onDone: () => Promise<unknown> }) {
  const trpc = useTRPC()
  const change = useMutation(trpc.billing.changeSeats.mutationOptions())
  const form = useAppForm({
    defaultValues: { seats: String(seats) },
    validators: { onDynamic: seatsFieldSchema },
    onSubmit: async ({ value, formApi }) => {
      const parsed = seatsFieldSchema.parse(value)
      try {
        const result = await change.mutateAsync({ seats: Number(parsed.seats) })
        toast.success(m.billing_seats_changed({ count: String(result.seats) }))
        await onDone()
      } catch (error) {
        if (!showServerFieldErrors(formApi, error, ['seats'])) toast.error(describeError(error))
      }
    },
  })
  return (
    <form
      method="post"
      noValidate
      className="grid gap-3"
      onSubmit={sendWith(form)}
      aria-label={m.checkout_seats_label()}
    >
      <form.AppField name="seats">
        {(field) => <field.TextField label={m.checkout_seats_label()} inputMode="numeric" autoComplete="off" />}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(submitting) => (
          <Button type="submit" variant="outline" className="justify-self-start" disabled={submitting}>
            {m.billing_seats_submit()}
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
