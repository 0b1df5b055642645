import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { sendWith, useAppForm } from '#/lib/form'
import { currentIntlLocale, getLocale } from '#/lib/i18n'
import { planDescription, planFeatures, planName } from '#/lib/plan-text'
import {
  type BillingInterval,
  type Currency,
  currencyForLocale,
  formatPrice,
  type PaidPlanId,
  periodAmount,
  planById,
  seatLimits,
} from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import { checkoutFormSchema } from '../schemas'
import type { CheckoutSearch } from '../search'
import '../billing-messages'

/**
 * Confirms what is bought before leaving for the provider: the plan, the period, the currency and (Team) the seats,
 * for the active organization. Only members who may manage billing can go on.
 */
export function CheckoutScreen({
  search,
  organizationName,
  canManage,
  seatsTaken,
  currencies,
}: {
  search: CheckoutSearch
  organizationName: string
  canManage: boolean
  seatsTaken: number
  /** What the payment provider charges in (a Lemon Squeezy store sells in one currency). */
  currencies: readonly Currency[]
}) {
  const trpc = useTRPC()
  const start = useMutation(trpc.billing.startCheckout.mutationOptions())
  const plan = planById(search.plan)
  const form = useAppForm({
    defaultValues: {
      interval: search.interval as string,
      currency:
        [search.currency, currencyForLocale(getLocale())].find((wanted) => currencies.includes(wanted as Currency)) ??
        (currencies[0] as string),
      seats: String(search.seats ?? Math.max(seatLimits.min, seatsTaken)),
    },
    validators: { onDynamic: checkoutFormSchema },
    onSubmit: async ({ value }) => {
      const { interval, currency, seats } = checkoutFormSchema.parse(value)
      try {
        const { url } = await start.mutateAsync({
          planId: search.plan as PaidPlanId,
          interval,
          currency,
          seats: plan.perSeat ? Number(seats) : undefined,
          locale: getLocale(),
        })
        window.location.assign(url)
      } catch (error) {
        toast.error(describeError(error))
      }
    },
  })

  return (
    <main id="main" className="mx-auto w-full max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{m.checkout_title({ plan: planName(plan.id) })}</h1>
      <p className="mt-1 text-muted-foreground">{m.checkout_for_organization({ organization: organizationName })}</p>
      <div className="mt-6 rounded-xl border p-4 sm:p-6">
        <p className="font-medium">{planName(plan.id)}</p>
        <p className="text-sm text-muted-foreground">{planDescription(plan.id)}</p>
        <ul className="mt-3 list-disc space-y-1 ps-5 text-sm">
          {planFeatures(plan).map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </div>
      {canManage ? (
        <form
          method="post"
          noValidate
          className="mt-6 grid gap-4"
          onSubmit={sendWith(form)}
          aria-label={m.checkout_form_label()}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <form.AppField name="interval">
              {(field) => (
                <field.SelectField label={m.pricing_interval_label()}>
                  <option value="monthly">{m.pricing_monthly()}</option>
                  <option value="yearly">{m.pricing_yearly()}</option>
                </field.SelectField>
              )}
            </form.AppField>
            <form.AppField name="currency">
              {(field) => (
                <field.SelectField label={m.checkout_currency_label()}>
                  {currencies.map((currency) => (
                    <option key={currency} value={currency}>
                      {currency === 'CNY' ? m.checkout_currency_cny() : m.checkout_currency_usd()}
                    </option>
                  ))}
                </field.SelectField>
              )}
            </form.AppField>
          </div>
          {plan.perSeat ? (
            <form.AppField name="seats">
              {(field) => (
                <field.TextField
                  label={m.checkout_seats_label()}
                  hint={m.checkout_seats_hint({ count: String(seatsTaken) })}
                  inputMode="numeric"
                  autoComplete="off"
                />
              )}
            </form.AppField>
          ) : null}
          <form.Subscribe selector={(state) => state.values}>
            {(values) => <CheckoutTotal planId={plan.id as PaidPlanId} values={values} />}
          </form.Subscribe>
          <form.Subscribe selector={(state) => state.isSubmitting}>
            {(submitting) => (
              <Button type="submit" disabled={submitting}>
                {submitting ? m.checkout_starting() : m.checkout_continue()}
              </Button>
            )}
          </form.Subscribe>
        </form>
      ) : (
        <p className="mt-6 rounded-lg border border-dashed p-4 text-sm" data-testid="checkout-owner-only">
          {m.checkout_owner_only()}
        </p>
      )}
      <p className="mt-6 text-sm">
        <a className="underline underline-offset-4" href={`${localizeHref('/')}#pricing`}>
          {m.checkout_back_to_pricing()}
        </a>
      </p>
    </main>
  )
}

function CheckoutTotal({
  planId,
  values,
}: {
  planId: PaidPlanId
  values: { interval: string; currency: string; seats: string }
}) {
  const plan = planById(planId)
  const parsed = checkoutFormSchema.safeParse(values)
  if (!parsed.success && !(values.interval && values.currency)) return null
  const interval = values.interval as BillingInterval
  const currency = values.currency as Currency
  const seats = parsed.success ? Number(parsed.data.seats) : seatLimits.min
  const total = formatPrice(periodAmount(plan, interval, currency, seats), currentIntlLocale(), currency)
  return (
    <p className="text-lg font-semibold" data-testid="checkout-total" aria-live="polite">
      {interval === 'yearly' ? m.checkout_total_yearly({ amount: total }) : m.checkout_total_monthly({ amount: total })}
    </p>
  )
}
