import { m } from '#/paraglide/messages'
import { appPlanLimits, writtenAmount } from './app-plan-limits'
import { currentIntlLocale, type Locale } from './i18n'
import type { Plan, PlanId } from './plans'

type Message = (inputs?: Record<string, never>, options?: { locale?: Locale }) => string

const planNames: Record<PlanId, Message> = {
  free: m.plan_free_name,
  pro: m.plan_pro_name,
  team: m.plan_team_name,
}

const planDescriptions: Record<PlanId, () => string> = {
  free: m.plan_free_description,
  pro: m.plan_pro_description,
  team: m.plan_team_description,
}

/** Promises that are service, not limits: they sit under the limits on a card. */
const planServices: Record<PlanId, (() => string)[]> = {
  free: [m.plan_support_community],
  pro: [m.plan_support_email],
  team: [m.plan_support_priority],
}

/** The plan's name in the page's language, or in `locale` (the server names a checkout's product in the buyer's). */
export function planName(id: PlanId, locale?: Locale): string {
  return planNames[id]({}, locale ? { locale } : undefined)
}

export function planDescription(id: PlanId): string {
  return planDescriptions[id]()
}

/** A card's list, read off the plan's limits so the cards never promise what the server does not enforce. */
export function planFeatures(plan: Plan): string[] {
  const count = (value: number) => new Intl.NumberFormat(currentIntlLocale()).format(value)
  const { members, aiRequestsPerMonth } = plan.limits
  const intl = currentIntlLocale()
  return [
    members === 'seats' ? m.plan_feature_members_seats() : m.plan_feature_members({ count: count(members) }),
    m.plan_feature_ai_requests({ count: count(aiRequestsPerMonth) }),
    ...appPlanLimits.map((limit) =>
      limit.cardLine(plan.id, writtenAmount(limit, limit.perPlan[plan.id], intl), limit.perPlan[plan.id]),
    ),
    ...planServices[plan.id].map((service) => service()),
  ]
}
