import { appPlanLimits, writtenAmount } from '#/lib/app-plan-limits'
import { intlLocales, type Locale } from '#/lib/i18n'
import { planName } from '#/lib/plan-text'
import { currencies, formatPrice, plans, seatLimits } from '#/lib/plans'
import { m } from '#/paraglide/messages'

/** The docs' plans table (header, then one row per plan), read from src/lib/plans.ts in one language. */
export function plansTableRows(lang: Locale): string[][] {
  const options = { locale: lang }
  const intl = intlLocales[lang]
  const count = (value: number) => new Intl.NumberFormat(intl).format(value)
  const prices = (amount: (currency: (typeof currencies)[number]) => number) =>
    currencies.map((currency) => formatPrice(amount(currency), intl, currency)).join(' / ')
  const header = [
    m.docs_plans_plan({}, options),
    m.pricing_monthly({}, options),
    m.pricing_yearly({}, options),
    m.docs_plans_members({}, options),
    m.docs_plans_ai_requests({}, options),
    ...appPlanLimits.map((limit) => limit.docsColumn.header(lang)),
  ]
  const rows = plans.map((plan) => [
    plan.perSeat ? m.docs_plans_per_seat({ plan: planName(plan.id, lang) }, options) : planName(plan.id, lang),
    prices((currency) => plan.prices[currency].monthly),
    prices((currency) => plan.prices[currency].yearly),
    plan.limits.members === 'seats'
      ? m.docs_plans_members_seats({ min: String(seatLimits.min), max: String(seatLimits.max) }, options)
      : count(plan.limits.members),
    count(plan.limits.aiRequestsPerMonth),
    ...appPlanLimits.map((limit) =>
      limit.docsColumn.cell(
        plan.id,
        writtenAmount(limit, limit.perPlan[plan.id], intl, lang),
        lang,
        limit.perPlan[plan.id],
      ),
    ),
  ])
  return [header, ...rows]
}

/** The same table in Markdown, for the pages' `.md` and /llms-full.txt. */
export function plansMarkdownTable(lang: Locale): string {
  const [header = [], ...rows] = plansTableRows(lang)
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}
