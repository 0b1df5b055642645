import { skipToken, useMutation, useQuery } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { appPlanLimit } from '#/lib/app-plan-limits'
import { describeError } from '#/lib/errors'
import { sendWith, useAppForm } from '#/lib/form'
import { planName } from '#/lib/plan-text'
import { type BillingInterval, billingIntervals, type PaidPlanId, paidPlanIds } from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRouter } from '#/server/trpc/root'
import { formatDay, intervalLabel, money, planSummary } from '../billing-format'
import { previewChangeInput, seatsFieldSchema } from '../schemas'
import './plan-change-messages'

type Asked = { kind: 'plan'; planId: PaidPlanId; interval: BillingInterval } | { kind: 'seats'; seats: number }

/** Pro ⇄ Team and monthly ⇄ yearly on the running subscription; what it costs is shown before it is made. */
export function PlanChanger({
  planId,
  interval,
  onDone,
}: {
  planId: string
  interval: string
  onDone: () => Promise<unknown>
}) {
  const [asked, setAsked] = useState<Asked | null>(null)
  const current = `${planId}:${interval}`
  const form = useAppForm({
    defaultValues: { choice: current },
    onSubmit: ({ value }) => {
      const [nextPlan, nextInterval] = value.choice.split(':')
      const input = previewChangeInput.parse({ planId: nextPlan, interval: nextInterval })
      setAsked({ kind: 'plan', planId: input.planId, interval: input.interval })
    },
  })
  return (
    <>
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
        <form.Subscribe selector={(state) => state.values.choice === current}>
          {(unchanged) => (
            <Button type="submit" variant="outline" className="justify-self-start" disabled={unchanged}>
              {m.billing_change_review()}
            </Button>
          )}
        </form.Subscribe>
      </form>
      <ChangeConfirmation asked={asked} onClose={() => setAsked(null)} onDone={onDone} />
    </>
  )
}

/** Team's seats: one member (or pending invitation) per seat; the price of the change is shown before it is made. */
export function SeatsForm({
  seats,
  placesTaken,
  onDone,
}: {
  seats: number
  /** Members and pending invitations: each needs a seat, so fewer seats are explained at once, not refused later. */
  placesTaken: number
  onDone: () => Promise<unknown>
}) {
  const [asked, setAsked] = useState<Asked | null>(null)
  const schema = seatsFieldSchema.refine((value) => Number(value.seats) >= placesTaken, {
    path: ['seats'],
    message: m.error_code_SEATS_BELOW_MEMBERS({ count: String(placesTaken) }),
  })
  const form = useAppForm({
    defaultValues: { seats: String(seats) },
    validators: { onDynamic: schema },
    onSubmit: ({ value }) => {
      setAsked({ kind: 'seats', seats: Number(schema.parse(value).seats) })
    },
  })
  return (
    <>
      <form
        method="post"
        noValidate
        className="grid gap-3"
        onSubmit={sendWith(form)}
        aria-label={m.checkout_seats_label()}
      >
        <form.AppField name="seats">
          {(field) => (
            <field.TextField
              label={m.checkout_seats_label()}
              hint={m.billing_seats_hint({ count: String(placesTaken) })}
              inputMode="numeric"
              autoComplete="off"
            />
          )}
        </form.AppField>
        <form.Subscribe selector={(state) => state.values.seats.trim() === String(seats)}>
          {(unchanged) => (
            <Button type="submit" variant="outline" className="justify-self-start" disabled={unchanged}>
              {m.billing_change_review()}
            </Button>
          )}
        </form.Subscribe>
      </form>
      <ChangeConfirmation asked={asked} onClose={() => setAsked(null)} onDone={onDone} />
    </>
  )
}

/**
 * The change priced by the provider, to confirm: the credit for the unused time, what is charged now, when it takes
 * effect and the next renewal; a change that would leave the organization over a limit says what to do instead.
 */
function ChangeConfirmation({
  asked,
  onClose,
  onDone,
}: {
  asked: Asked | null
  onClose: () => void
  onDone: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const planPreview = useQuery({
    ...trpc.billing.previewChange.queryOptions(
      asked?.kind === 'plan' ? { planId: asked.planId, interval: asked.interval } : skipToken,
    ),
    gcTime: 0,
  })
  const seatsPreview = useQuery({
    ...trpc.billing.previewSeats.queryOptions(asked?.kind === 'seats' ? { seats: asked.seats } : skipToken),
    gcTime: 0,
  })
  const preview = asked?.kind === 'seats' ? seatsPreview : planPreview
  const changePlan = useMutation(trpc.billing.changePlan.mutationOptions())
  const changeSeats = useMutation(trpc.billing.changeSeats.mutationOptions())
  const pending = changePlan.isPending || changeSeats.isPending
  const data = preview.data

  const confirm = async () => {
    if (!data || !asked) return
    const confirmation = { prorationDate: data.prorationDate, expectedAmountDue: data.amountDue }
    try {
      const result =
        asked.kind === 'plan'
          ? await changePlan.mutateAsync({ planId: asked.planId, interval: asked.interval, ...confirmation })
          : await changeSeats.mutateAsync({ seats: asked.seats, ...confirmation })
      toast.success(
        m.billing_change_done({
          plan: planSummary(data.planId, data.interval, data.seats),
          amount: money(result.amountDue, result.currency),
        }),
      )
      await onDone()
      onClose()
    } catch (error) {
      toast.error(describeError(error))
      // A price that moved on is shown again, as it is now.
      await preview.refetch()
    }
  }

  return (
    <Dialog open={asked !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogTitle>{m.billing_change_confirm_title()}</DialogTitle>
        <DialogDescription>{m.billing_change_confirm_description()}</DialogDescription>
        {preview.isPending ? (
          <div className="mt-4 h-40 animate-pulse rounded-lg bg-muted" aria-busy="true" />
        ) : preview.error || !data ? (
          <div className="mt-4 grid gap-3">
            <p className="text-sm text-destructive" role="alert">
              {describeError(preview.error)}
            </p>
            <Button variant="outline" className="justify-self-start" onClick={() => void preview.refetch()}>
              {m.retry()}
            </Button>
          </div>
        ) : (
          <ChangeSummary preview={data} />
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            {m.cancel()}
          </Button>
          <Button
            onClick={() => void confirm()}
            disabled={!data || data.blockers.length > 0 || pending || preview.isFetching}
            data-testid="confirm-plan-change"
          >
            {pending
              ? m.billing_change_confirming()
              : data
                ? m.billing_change_confirm({ amount: money(data.amountDue, data.currency) })
                : m.billing_change_review()}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}

type Preview = inferRouterOutputs<AppRouter>['billing']['previewChange']

function ChangeSummary({ preview }: { preview: Preview }) {
  const newPeriod = preview.periodStart.getTime() === preview.prorationDate.getTime()
  const rows: [string, string, string?][] = [
    [
      m.billing_change_new_plan(),
      `${planSummary(preview.planId, preview.interval, preview.seats)} — ${money(preview.newAmount, preview.currency)}`,
    ],
    [m.billing_change_credit(), `−${money(preview.credit, preview.currency)}`],
    [
      newPeriod ? m.billing_change_charge_new_period() : m.billing_change_charge_rest(),
      money(preview.charge, preview.currency),
    ],
    [m.billing_change_due_now(), money(preview.amountDue, preview.currency), 'font-semibold'],
  ]
  if (preview.creditLeft > 0) rows.push([m.billing_change_credit_left(), money(preview.creditLeft, preview.currency)])
  rows.push([m.billing_change_effective(), m.billing_change_effective_now()])
  rows.push([
    m.billing_change_next_renewal(),
    m.billing_change_renews({
      date: formatDay(preview.periodEnd),
      amount: money(preview.newAmount, preview.currency),
    }),
  ])
  return (
    <div className="mt-4 grid gap-4">
      <dl className="grid gap-2 text-sm" data-testid="plan-change-summary">
        {rows.map(([label, value, emphasis]) => (
          <div key={label} className="flex flex-wrap justify-between gap-x-4 gap-y-1 border-b pb-2 last:border-b-0">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className={`tabular-nums ${emphasis ?? ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {preview.blockers.map((blocker) => {
        const amounts = { used: String(blocker.used), allowed: String(blocker.allowed) }
        const downgrade = blocker.limit === 'members' ? undefined : appPlanLimit(blocker.limit)?.downgrade
        return (
          <div
            key={blocker.limit}
            role="alert"
            className="grid gap-2 rounded-lg border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
            data-testid="plan-change-blocker"
          >
            <p>{downgrade ? downgrade.blocked(amounts) : m.billing_change_blocked_members(amounts)}</p>
            <a
              className="justify-self-start font-medium underline underline-offset-4"
              href={localizeHref(downgrade ? String(downgrade.manage.to) : '/console/organization/members')}
            >
              {downgrade ? downgrade.manage.label() : m.billing_change_manage_members()}
            </a>
          </div>
        )
      })}
    </div>
  )
}
