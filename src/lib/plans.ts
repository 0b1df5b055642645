/**
 * The plans offered on the pricing section (and, later, charged by billing). Edit prices here; amounts are in
 * the currency's minor unit (cents) so that billing never rounds.
 */
export type BillingInterval = 'monthly' | 'yearly'
export type PlanId = 'free' | 'pro' | 'team'

export interface Plan {
  id: PlanId
  /** Price per interval in minor units; 0 for a free plan. */
  prices: Record<BillingInterval, number>
  /** Per seat, shown as "per user". */
  perSeat: boolean
  highlighted: boolean
}

export const pricingCurrency = 'USD'

export const plans: readonly Plan[] = [
  { id: 'free', prices: { monthly: 0, yearly: 0 }, perSeat: false, highlighted: false },
  { id: 'pro', prices: { monthly: 1900, yearly: 19000 }, perSeat: false, highlighted: true },
  { id: 'team', prices: { monthly: 4900, yearly: 49000 }, perSeat: true, highlighted: false },
]

/** The whole-percent saving of paying yearly instead of twelve monthly payments, over all paid plans. */
export function yearlySavingPercent(planList: readonly Plan[] = plans): number {
  const savings = planList
    .filter((plan) => plan.prices.monthly > 0)
    .map((plan) => 1 - plan.prices.yearly / (plan.prices.monthly * 12))
  if (savings.length === 0) return 0
  return Math.floor(Math.min(...savings) * 100)
}

// Creating an Intl.NumberFormat costs far more than using one; a page shows a dozen prices.
const formatters = new Map<string, Intl.NumberFormat>()

function priceFormatter(intlLocale: string, currency: string, decimals: 0 | 2): Intl.NumberFormat {
  const key = `${intlLocale}|${currency}|${decimals}`
  let formatter = formatters.get(key)
  if (!formatter) {
    formatter = new Intl.NumberFormat(intlLocale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: 2,
    })
    formatters.set(key, formatter)
  }
  return formatter
}

export function formatPrice(minorUnits: number, intlLocale: string, currency = pricingCurrency): string {
  const amount = minorUnits / 100
  return priceFormatter(intlLocale, currency, Number.isInteger(amount) ? 0 : 2).format(amount)
}
