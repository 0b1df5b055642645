/**
 * The one definition of the plans: the pricing section shows it, checkout charges it, the server enforces its limits
 * and the docs describe it. An installed app adds limits of its own (its plans.ts, src/plan-apps.gen.ts). Amounts are in the currency's minor unit (cents, fen) so that billing never rounds.
 */
import type { Locale } from './i18n'

export type BillingInterval = 'monthly' | 'yearly'
export const billingIntervals = ['monthly', 'yearly'] as const satisfies readonly BillingInterval[]
export type PlanId = 'free' | 'pro' | 'team'
export const planIds = ['free', 'pro', 'team'] as const satisfies readonly PlanId[]
export type PaidPlanId = Exclude<PlanId, 'free'>
export const paidPlanIds = ['pro', 'team'] as const satisfies readonly PaidPlanId[]
export type Currency = 'USD' | 'CNY'
export const currencies = ['USD', 'CNY'] as const satisfies readonly Currency[]

export interface PlanLimits {
  /** Members per organization (pending invitations count too); 'seats' means as many as the subscription's seats. */
  members: number | 'seats'
  /** AI requests per organization per calendar month (UTC). */
  aiRequestsPerMonth: number
}

export interface Plan {
  id: PlanId
  /** Price per interval and currency in minor units (per seat when `perSeat`); 0 for a free plan. */
  prices: Record<Currency, Record<BillingInterval, number>>
  /** Priced per seat, shown as "per user". */
  perSeat: boolean
  highlighted: boolean
  limits: PlanLimits
}

/** Seats a Team subscription may have. */
export const seatLimits = { min: 2, max: 500 } as const

export const plans: readonly Plan[] = [
  {
    id: 'free',
    prices: { USD: { monthly: 0, yearly: 0 }, CNY: { monthly: 0, yearly: 0 } },
    perSeat: false,
    highlighted: false,
    limits: { members: 3, aiRequestsPerMonth: 1_000 },
  },
  {
    id: 'pro',
    prices: { USD: { monthly: 1900, yearly: 19000 }, CNY: { monthly: 12900, yearly: 129000 } },
    perSeat: false,
    highlighted: true,
    limits: {
      members: 10,
      aiRequestsPerMonth: 50_000,
    },
  },
  {
    id: 'team',
    prices: { USD: { monthly: 4900, yearly: 49000 }, CNY: { monthly: 34900, yearly: 349000 } },
    perSeat: true,
    highlighted: false,
    limits: {
      members: 'seats',
      aiRequestsPerMonth: 250_000,
    },
  },
]

export function planById(id: PlanId): Plan {
  const plan = plans.find((candidate) => candidate.id === id)
  if (!plan) throw new Error(`Unknown plan ${id}`)
  return plan
}

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIds as readonly string[]).includes(value)
}

/** The currency a language's visitors see first: yuan in Chinese, dollars otherwise. */
export function currencyForLocale(locale: Locale): Currency {
  return locale === 'zh' ? 'CNY' : 'USD'
}

/** What one period costs: the plan's price, times the seats for a per-seat plan. */
export function periodAmount(plan: Plan, interval: BillingInterval, currency: Currency, seats: number): number {
  return plan.prices[currency][interval] * (plan.perSeat ? seats : 1)
}

/** The members an organization on `plan` may have; Team allows as many as it pays seats for. */
export function memberLimitOf(plan: Plan, seats: number): number {
  return plan.limits.members === 'seats' ? seats : plan.limits.members
}

/** The whole-percent saving of paying yearly instead of twelve monthly payments, over all paid plans. */
export function yearlySavingPercent(planList: readonly Plan[] = plans, currency: Currency = 'USD'): number {
  const savings = planList
    .filter((plan) => plan.prices[currency].monthly > 0)
    .map((plan) => 1 - plan.prices[currency].yearly / (plan.prices[currency].monthly * 12))
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

export function formatPrice(minorUnits: number, intlLocale: string, currency: Currency | string = 'USD'): string {
  const amount = minorUnits / 100
  return priceFormatter(intlLocale, currency, Number.isInteger(amount) ? 0 : 2).format(amount)
}
