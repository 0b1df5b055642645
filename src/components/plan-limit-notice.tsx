import { useQuery } from '@tanstack/react-query'
import { apps } from '#/apps.gen'
import { appPlanLimit, writtenAmount } from '#/lib/app-plan-limits'
import { useCan } from '#/lib/console-session'
import { appErrorOf, describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** Where an organization's plan is changed, and who may change it, when an installed app sells plans (billing). */
const planPages = apps.find((app) => app.planPages)?.planPages

export function isPlanLimitError(error: unknown): boolean {
  return appErrorOf(error)?.appCode.startsWith('PLAN_LIMIT_') ?? false
}

/**
 * A plan's limit met inside a dialog: said there, with the way past it. (A toast's button cannot be reached while a
 * modal dialog holds the focus and the pointer.)
 */
export function PlanLimitNotice({ error }: { error: unknown }) {
  if (!isPlanLimitError(error)) return null
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm"
      data-testid="plan-limit"
    >
      {describeError(error)}
      {planPages ? (
        <>
          {' '}
          <a className="font-medium underline underline-offset-4" href={localizeHref(planPages.manage)}>
            {m.plan_limit_upgrade()}
          </a>
        </>
      ) : null}
    </p>
  )
}

/** The core's limits, or an installed app's by its name (its plans.ts). */
export type PlanLimitName = 'members' | 'aiRequests' | (string & {})

/**
 * What the active organization's plan still allows of `name`, as every member may read it (`organizations.planLimits`):
 * `reached` when the next one would be refused; `over` when there are more than the plan allows (after a downgrade).
 */
export function usePlanLimit(name: PlanLimitName) {
  const trpc = useTRPC()
  const planLimits = useQuery({ ...trpc.organizations.planLimits.queryOptions(), staleTime: 30_000 })
  const canManage = useCan(planPages?.changers ?? {})
  const data = planLimits.data
  if (!data) return null
  const amounts = data.limits[name]
  if (!amounts || amounts.limit === null) return null
  const { used, limit } = amounts
  return { used, limit, reached: used >= limit, over: used > limit, canManage: Boolean(planPages) && canManage }
}

type LimitWords = (amounts: { used: string; limit: string }) => string

const coreLimitWords: Record<string, { reached: LimitWords; over: LimitWords } | undefined> = {
  members: { reached: m.plan_limit_reached_members, over: m.plan_limit_over_members },
  aiRequests: { reached: m.plan_limit_reached_ai, over: m.plan_limit_reached_ai },
}

/**
 * Said before an action the plan would refuse is started: how much of the plan is used, what happens now, and the
 * way past it (an upgrade for those who manage billing; whom to ask for everyone else). Nothing while there is room.
 */
export function PlanLimitReached({ name, id }: { name: PlanLimitName; id?: string }) {
  const state = usePlanLimit(name)
  if (!state?.reached) return null
  const appLimit = Object.hasOwn(coreLimitWords, name) ? undefined : appPlanLimit(name)
  const limitWords = appLimit ?? coreLimitWords[name]
  if (!limitWords) return null
  const count = (value: number) => writtenAmount(appLimit ?? { unit: 'count' }, value, currentIntlLocale())
  const words = state.over ? limitWords.over : limitWords.reached
  return (
    <p
      id={id}
      role="status"
      className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
      data-testid={`plan-limit-reached-${name}`}
    >
      {words({ used: count(state.used), limit: count(state.limit) })}{' '}
      {state.canManage && planPages ? (
        <a className="font-medium underline underline-offset-4" href={localizeHref(planPages.manage)}>
          {m.plan_limit_upgrade()}
        </a>
      ) : (
        m.plan_limit_ask_owner()
      )}
    </p>
  )
}
