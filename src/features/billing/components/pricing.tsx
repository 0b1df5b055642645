import { useQuery } from '@tanstack/react-query'
import { CheckIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { useSignedIn } from '#/features/landing'
import { currentIntlLocale, getLocale } from '#/lib/i18n'
import { planDescription, planFeatures, planName } from '#/lib/plan-text'
import {
  type BillingInterval,
  type Currency,
  currencyForLocale,
  formatPrice,
  type Plan,
  plans,
  yearlySavingPercent,
} from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** The signed-in visitor's organization plan (null for a visitor, or until known). */
function useCurrentPlanId(): string | null {
  const signedIn = useSignedIn()
  const trpc = useTRPC()
  const overview = useQuery({ ...trpc.billing.overview.queryOptions(), enabled: signedIn === true, retry: false })
  return overview.data?.planId ?? null
}

/** The landing page's plans, each with its price in the visitor's currency and a way to buy it. */
export function Pricing() {
  const [interval, setInterval] = useState<BillingInterval>('monthly')
  const currency = currencyForLocale(getLocale())
  const saving = yearlySavingPercent(plans, currency)
  useCheckoutOutcomeToast()
  const currentPlanId = useCurrentPlanId()
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="border-t py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="pricing-title" className="text-3xl font-bold tracking-tight">
            {m.pricing_title()}
          </h2>
          <p className="mt-4 text-muted-foreground">{m.pricing_subtitle()}</p>
        </div>
        <fieldset className="mx-auto mt-8 flex w-fit items-center gap-1 rounded-full border p-1">
          <legend className="sr-only">{m.pricing_interval_label()}</legend>
          {(['monthly', 'yearly'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={interval === option}
              onClick={() => setInterval(option)}
              className={cn(
                'rounded-full px-4 py-1.5 text-sm font-medium outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50',
                interval === option
                  ? 'bg-primary text-primary-foreground'
                  : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {option === 'monthly' ? m.pricing_monthly() : m.pricing_yearly()}
              {option === 'yearly' && saving > 0 ? (
                <span className="ml-1.5 text-xs">{m.pricing_yearly_saving({ percent: String(saving) })}</span>
              ) : null}
            </button>
          ))}
        </fieldset>
        <ul className="mt-10 grid gap-6 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} interval={interval} currency={currency} currentPlanId={currentPlanId} />
          ))}
        </ul>
      </div>
    </section>
  )
}

/**
 * One plan. A signed-in customer sees theirs marked, with the way to manage it; on a paid plan the others are
 * changed from Billing (a second checkout would start a second subscription).
 */
function PlanCard({
  plan,
  interval,
  currency,
  currentPlanId,
}: {
  plan: Plan
  interval: BillingInterval
  currency: Currency
  currentPlanId: string | null
}) {
  const locale = currentIntlLocale()
  const prices = plan.prices[currency]
  const isFree = prices.monthly === 0
  // Yearly prices are shown per month, with the yearly amount billed underneath.
  const perMonth = interval === 'yearly' ? Math.round(prices.yearly / 12) : prices.monthly
  const billedYearly = formatPrice(prices.yearly, locale, currency)
  // Checkout signs the visitor in (or up) first, so the cached page links every visitor to the same place.
  const checkoutHref = isFree
    ? localizeHref('/sign-up')
    : `${localizeHref('/checkout')}?${new URLSearchParams({ plan: plan.id, interval, currency })}`
  const current = currentPlanId === plan.id
  const billingHref = localizeHref('/console/organization/billing')
  const [href, label] = current
    ? isFree
      ? [localizeHref('/console'), m.pricing_open_console()]
      : [billingHref, m.pricing_manage_billing()]
    : currentPlanId !== null && currentPlanId !== 'free'
      ? [billingHref, m.pricing_switch_in_billing()]
      : [checkoutHref, isFree ? m.pricing_cta_free() : m.pricing_cta_paid({ plan: planName(plan.id) })]
  return (
    <li
      data-testid={`plan-${plan.id}`}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-xs',
        plan.highlighted && 'border-primary ring-1 ring-primary',
      )}
    >
      {current ? (
        <span
          className="absolute -top-3 left-6 rounded-full border border-primary bg-background px-3 py-0.5 text-xs font-medium text-primary"
          data-testid="current-plan"
        >
          {m.pricing_current_plan()}
        </span>
      ) : plan.highlighted ? (
        <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-medium text-primary-foreground">
          {m.pricing_most_popular()}
        </span>
      ) : null}
      <h3 className="text-lg font-semibold">{planName(plan.id)}</h3>
      <p className="mt-1 text-sm text-muted-foreground">{planDescription(plan.id)}</p>
      <p className="mt-6 flex items-baseline gap-2">
        <span className="text-4xl font-bold tracking-tight" data-testid={`price-${plan.id}`}>
          {formatPrice(perMonth, locale, currency)}
        </span>
        <span className="text-sm text-muted-foreground">
          {plan.perSeat ? m.pricing_per_user_month() : m.pricing_per_month()}
        </span>
      </p>
      <p className="mt-1 h-5 text-sm text-muted-foreground">
        {isFree
          ? m.pricing_free_forever()
          : interval === 'yearly'
            ? plan.perSeat
              ? m.pricing_billed_yearly_per_user({ amount: billedYearly })
              : m.pricing_billed_yearly({ amount: billedYearly })
            : null}
      </p>
      <ul className="mt-6 flex-1 space-y-2 text-sm">
        {planFeatures(plan).map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      <Button className="mt-8 w-full" variant={plan.highlighted ? 'default' : 'outline'} asChild>
        <a href={href}>{label}</a>
      </Button>
    </li>
  )
}

/** Checkout sends a cancelled or failed payment back here with `?checkout=canceled|failed`: say what happened once. */
function useCheckoutOutcomeToast() {
  useEffect(() => {
    const url = new URL(window.location.href)
    const outcome = url.searchParams.get('checkout')
    if (outcome !== 'canceled' && outcome !== 'failed') return
    if (outcome === 'canceled') toast.info(m.checkout_canceled_toast())
    else toast.error(m.checkout_failed_toast())
    url.searchParams.delete('checkout')
    window.history.replaceState(window.history.state, '', url)
  }, [])
}
